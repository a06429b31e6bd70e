// math(EXPR): 64-bit integer arithmetic with CMake's operators (+ - * / % << >> & | ^ ~
// and parentheses, decimal and 0x hexadecimal literals).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace rocm_audit {

/// nullopt for a malformed expression or a division by zero.
std::optional<int64_t> EvaluateMathExpression(std::string_view expression);

}  // namespace rocm_audit
