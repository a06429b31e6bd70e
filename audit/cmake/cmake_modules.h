// The modules of the CMake rocm-audit was built with (their names are read from its
// module directory at configure time): include(<Module>) of one of them is known to
// succeed and is not evaluated.
#pragma once

#include <string_view>

namespace rocm_audit {

inline constexpr std::string_view kCMakeVersion = ROCM_AUDIT_CMAKE_VERSION;
inline constexpr std::string_view kCMakeRoot = ROCM_AUDIT_CMAKE_ROOT;

bool IsCMakeModule(std::string_view name);
/// Find<Name>.cmake exists: find_package(Name) in module mode needs no config.
bool HasFindModule(std::string_view package);

}  // namespace rocm_audit
