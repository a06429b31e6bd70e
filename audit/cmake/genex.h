// Generator expressions in an imported target's properties, evaluated for a consumer of
// the installed package: $<INSTALL_INTERFACE:x> is x, $<BUILD_INTERFACE:x> is nothing,
// $<LINK_ONLY:x> is x, and a condition this evaluation cannot know ($<$<CONFIG:Debug>:x>,
// $<$<COMPILE_LANGUAGE:CXX>:x>) is taken as true, so that what it names is still checked.
// $<PLATFORM_ID:...> is the consumer's Linux, and $<TARGET_PROPERTY:t,p> is read from a
// target the caller knows (Qt 6.8's private include directories are under
// $<$<BOOL:$<TARGET_PROPERTY:Qt6::Concurrent,_qt_module_has_private_headers>>:...>). Other
// expressions ($<TARGET_FILE:t>, $<CONFIG>) leave their list item unevaluable.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rocm_audit {

/// A property of a target as far as the evaluation defined it ("" when unset); nullopt when
/// the target is not known, so the expression cannot be evaluated.
using TargetPropertyLookup =
    std::function<std::optional<std::string>(std::string_view target, std::string_view property)>;

/// The list items of `value` a consumer may see; items still holding an expression that
/// cannot be evaluated statically are left out.
std::vector<std::string> InstallInterfaceItems(std::string_view value,
                                               const TargetPropertyLookup& lookup = {});

/// A target an item of an interface property names in an expression that CMake evaluates
/// for every consumer linking the target, and that fails its generate step when no such
/// target exists: $<TARGET_PROPERTY:t,p> ("Target \"t\" not found"), $<TARGET_OBJECTS:t>
/// ("Objects of target \"t\" referenced but no such target exists") and $<TARGET_FILE:t>
/// with its siblings ("No target \"t\"").
struct TargetReference {
  std::string target;
  std::string expression;  ///< its head: "TARGET_PROPERTY", "TARGET_OBJECTS", ...
};
/// The targets `value`'s items name so, at their top level or inside expressions that pass
/// their content on ($<BUILD_INTERFACE:...>, $<LINK_ONLY:...>); one nested in a condition is
/// evaluated only where the condition holds.
std::vector<TargetReference> TargetsNamedByItems(std::string_view value);

}  // namespace rocm_audit
