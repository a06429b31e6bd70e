// find_library() and find_path() answered by the installed world, as CMake 3.25 on Debian
// searches it (cmFindBase, cmFindLibraryCommand, cmFindPathCommand): what a Find module of the
// package, or of CMake, learns of the machine it runs on.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "audit/cmake/installed_files.h"

namespace rocm_audit {

/// One find_library() or find_path() call, its arguments read.
struct FileSearch {
  bool library = true;  ///< find_library; false: find_path
  std::vector<std::string> names, hints, paths, suffixes;
  std::vector<std::string> prefix_path;  ///< the CMAKE_PREFIX_PATH variable's items, if set
  bool default_path = true;              ///< neither NO_DEFAULT_PATH nor both system groups left out
};

/// Where the call finds its file: the library's path, or the directory holding the header;
/// "" when it is nowhere it looks. The consumer's environment (CMAKE_PREFIX_PATH,
/// CMAKE_LIBRARY_PATH, ...) is taken to be empty and its PATH Debian's default, as for
/// find_package() (DependencyLocator).
/// `probes`: how many file names it asked the world about.
std::string SearchWorld(const FileSearch& s, const InstalledFiles& files, size_t* probes);

}  // namespace rocm_audit
