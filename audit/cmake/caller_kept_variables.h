// What find_package() keeps of its caller's scope while the list files of the package it
// found run there: cmFindPackageCommand restores the file being read and its own request
// after them, and a few names are only ever a file's own in passing.
#pragma once

#include <string>
#include <string_view>

namespace rocm_audit {

struct CallerKeptVariables {
  /// <Name>_FIND_: the request, the caller's again after the call (whatever the name, a
  /// name starting with it holds "_FIND_", which MayKeep() counts on).
  std::string find_prefix;
  bool module_path = false;  ///< CMAKE_MODULE_PATH: the caller merges it (ModulePathAfter)
  bool prefix_dir = false;   ///< PACKAGE_PREFIX_DIR: given back after the config (CMake 3.30)

  /// The caller's value of `name` stays, whatever the package's files left.
  bool Keeps(std::string_view name) const;
  /// Whether some find_package() keeps `name` (Keeps() for some request): the names a
  /// frozen map lists so that adopting it does not read all of it (VariableMap::Adopt).
  static bool MayKeep(std::string_view name);
};

}  // namespace rocm_audit
