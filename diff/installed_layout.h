// Where an installed file is below its install prefix, so that the two sides of a diff pair
// their files whatever prefix each side was installed under: a DESTDIR staging tree
// (stage/usr/lib/x86_64-linux-gnu/...) against a .deb (usr/lib/...), /opt/rocm-6.0 against
// /opt/rocm-6.2, a tree given at its usr/ against one given at its root.
//
// The rule is the GNU installation directories' (GNUInstallDirs, which ROCm's CMake builds
// use): an installed path is <prefix>/<installation directory>/..., the installation
// directory one of bin, sbin, libexec, lib, lib64, include, share, etc, var (with lib32,
// libx32 and com), and the prefix is what comes before the first of them. The library
// directory of one install is spelled lib, lib64 or lib/<multiarch tuple> by distribution
// (CMAKE_INSTALL_LIBDIR), and find_package() searches <prefix>/(lib/<arch>|lib*|share)/cmake/
// alike: lib64 and lib/<tuple> are the place lib is. Libraries are matched by SONAME, not by
// this (shared_libraries.h); abipkgdiff does the same: SONAME for libraries, the path inside
// the package below what all its paths share for the other files. Files of one side at the
// same place below two prefixes (usr/ and opt/rocm/ in one tree) are one place: a side is
// one install.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace rocm_audit {

/// `path` (below its input, "usr/lib/x86_64-linux-gnu/cmake/hip/hip-config.cmake") from
/// its first installation directory on, the library directory spelled lib
/// ("lib/cmake/hip/hip-config.cmake"); a path with no installation directory as it is.
std::string PlaceBelowPrefix(std::string_view path);

/// `path` cut where its place starts: the install prefix before the first installation
/// directory ("opt/rocm-6.2"; "" for a path that starts at one, or has none) and
/// PlaceBelowPrefix(path).
struct InstalledPlace {
  std::string prefix;
  std::string place;
};
InstalledPlace SplitAtPrefix(std::string_view path);

/// A finding's key ("check|path|field=value|...", policy/finding_key.h) with its path and
/// every relative path among its values as PlaceBelowPrefix() writes them, and a package
/// member ("PKG.deb:/usr/lib/x") by its installed path: the key two sides' findings of the
/// same defect share whatever prefix and package file each was installed from.
std::string KeyBelowPrefix(std::string_view key);

/// KeyBelowPrefix(key) with each place that `identity` names (PlaceBelowPrefix -> what the
/// file is, diff/file_identity.h) written as that identity instead.
std::string KeyByIdentity(std::string_view key,
                          const std::map<std::string, std::string, std::less<>>& identity);

}  // namespace rocm_audit
