#include "audit/cmake/cmake_modules.h"

#include <algorithm>
#include <string>

namespace rocm_audit {
namespace {

// Generated at configure time: the sorted names of ${CMAKE_ROOT}/Modules/*.cmake.
constexpr std::string_view kModules[] = {
#include "cmake_module_names.inc"
};

}  // namespace

bool IsCMakeModule(std::string_view name) {
  return std::binary_search(std::begin(kModules), std::end(kModules), name);
}

bool HasFindModule(std::string_view package) {
  std::string name = "Find";
  name += package;
  return IsCMakeModule(name);
}

}  // namespace rocm_audit
