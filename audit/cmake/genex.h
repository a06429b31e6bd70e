// Generator expressions in an imported target's properties, evaluated for a consumer of
// the installed package: $<INSTALL_INTERFACE:x> is x, $<BUILD_INTERFACE:x> is nothing,
// $<LINK_ONLY:x> is x, and a condition this evaluation cannot know ($<$<CONFIG:Debug>:x>,
// $<$<COMPILE_LANGUAGE:CXX>:x>) is taken as true, so that what it names is still checked.
// Other expressions ($<TARGET_FILE:t>, $<CONFIG>) leave their list item unevaluable.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rocm_audit {

/// The list items of `value` a consumer may see; items still holding an expression that
/// cannot be evaluated statically are left out.
std::vector<std::string> InstallInterfaceItems(std::string_view value);

}  // namespace rocm_audit
