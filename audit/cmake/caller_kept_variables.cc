#include "audit/cmake/caller_kept_variables.h"

namespace rocm_audit {
namespace {

// Names no package's files leave for their caller: the list file being read, the package
// find_package() is loading, and what a regex match, a function or a macro call left.
bool FilesOwn(std::string_view name) {
  return name.starts_with("CMAKE_CURRENT_LIST_") || name == "CMAKE_FIND_PACKAGE_NAME" ||
         name.starts_with("CMAKE_MATCH_") || name.starts_with("ARG");
}

}  // namespace

bool CallerKeptVariables::Keeps(std::string_view name) const {
  return FilesOwn(name) || (!find_prefix.empty() && name.starts_with(find_prefix)) ||
         (module_path && name == "CMAKE_MODULE_PATH") || (prefix_dir && name == "PACKAGE_PREFIX_DIR");
}

bool CallerKeptVariables::MayKeep(std::string_view name) {
  return FilesOwn(name) || name.find("_FIND_") != std::string_view::npos || name == "CMAKE_MODULE_PATH" ||
         name == "PACKAGE_PREFIX_DIR";
}

}  // namespace rocm_audit
