// Expansion of one argument's raw text: ${var} (nested), $ENV{var}, $CACHE{var} and escape
// sequences, as CMake does before a command sees its arguments. A reference to an unknown
// value makes the whole result unknown.
#pragma once

#include <cstdint>

#include <functional>
#include <string_view>

#include "audit/cmake/value.h"

namespace rocm_audit {

/// Returns the variable's value, or null when it is not defined (expands to "").
using VariableLookup = std::function<const CMakeValue*(std::string_view name)>;

/// `env` is asked for $ENV{name}; the static evaluator answers "unknown" (the consumer's
/// environment is not known when a package is installed). A result that would grow past
/// `max_bytes` is unknown instead (a string doubled in a loop must not exhaust memory), and
/// `*too_long` is set.
CMakeValue ExpandReferences(std::string_view raw, const VariableLookup& vars, const VariableLookup& env,
                            size_t max_bytes = SIZE_MAX, bool* too_long = nullptr);

}  // namespace rocm_audit
