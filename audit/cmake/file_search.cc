#include "audit/cmake/file_search.h"

#include <algorithm>

#include "audit/cmake/package_config.h"
#include "audit/fs/path.h"

namespace rocm_audit {
namespace {

// The directories a prefix gives the search: lib/<arch> and lib for a library, include/<arch>
// and include for a header (cmFindBase::FillPath's "<prefix>/lib/<arch>, <prefix>/lib").
void AddPrefix(const FileSearch& s, const std::string& prefix, std::vector<std::string>& dirs) {
  const std::string base = prefix == "/" ? "" : prefix;
  const std::string kind = s.library ? "/lib" : "/include";
  dirs.push_back(base + kind + "/" + std::string(kLibraryArchitecture));
  dirs.push_back(base + kind);
}

// The directories searched, in CMake's order: CMAKE_PREFIX_PATH, HINTS, the prefixes of the
// consumer's PATH, CMAKE_SYSTEM_PREFIX_PATH (as find_package() searches them), then PATHS; a
// prefix of both groups once.
std::vector<std::string> SearchedDirectories(const FileSearch& s) {
  std::vector<std::string> dirs;
  if (s.default_path)
    for (const std::string& p : s.prefix_path) AddPrefix(s, p, dirs);
  dirs.insert(dirs.end(), s.hints.begin(), s.hints.end());
  if (s.default_path) {
    static const std::vector<std::string> kPrefixes = [] {
      std::vector<std::string> prefixes = PathPrefixes();
      for (const std::string& p : SystemPrefixes())
        if (std::find(prefixes.begin(), prefixes.end(), p) == prefixes.end()) prefixes.push_back(p);
      return prefixes;
    }();
    for (const std::string& p : kPrefixes) AddPrefix(s, p, dirs);
  }
  dirs.insert(dirs.end(), s.paths.begin(), s.paths.end());
  // PATH_SUFFIXES: each below every directory, besides the directory itself.
  std::vector<std::string> out;
  for (const std::string& d : dirs) {
    for (const std::string& suffix : s.suffixes) out.push_back(d + "/" + suffix);
    out.push_back(d);
  }
  return out;
}

// The file names find_library() tries for `name`: lib<name>.so and lib<name>.a
// (CMAKE_FIND_LIBRARY_PREFIXES and _SUFFIXES on Linux), and the name itself when it is a
// library's file name already.
std::vector<std::string> LibraryFileNames(const std::string& name) {
  std::vector<std::string> out;
  if (name.ends_with(".so") || name.ends_with(".a") || name.find(".so.") != std::string::npos)
    out.push_back(name);
  out.push_back("lib" + name + ".so");
  out.push_back("lib" + name + ".a");
  return out;
}

}  // namespace

std::string SearchWorld(const FileSearch& s, const InstalledFiles& files, size_t* probes) {
  const std::vector<std::string> dirs = SearchedDirectories(s);
  auto exists = [&](const std::string& path) {
    ++*probes;
    return files.Exists(path) == Tri::kTrue;
  };
  // Each name in every directory before the next name (NAMES_PER_DIR not given).
  for (const std::string& name : s.names) {
    if (name.empty()) continue;
    for (const std::string& dir : dirs) {
      if (!dir.starts_with("/")) continue;
      if (s.library) {
        for (const std::string& file : LibraryFileNames(name))
          if (exists(dir + "/" + file)) return NormalizePath(dir + "/" + file);
      } else if (exists(dir + "/" + name)) {
        return NormalizePath(dir);
      }
    }
  }
  return "";
}

}  // namespace rocm_audit
