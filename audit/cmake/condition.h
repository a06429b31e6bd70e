// if()/elseif()/while() conditions, three-valued: true, false, or undecided when an operand
// is unknown. Precedence and operand dereferencing follow CMake: parentheses, unary tests,
// binary tests, NOT, then AND/OR left to right; an unquoted operand that names a variable
// stands for its value, a quoted one never does.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "audit/cmake/value.h"

namespace rocm_audit {

enum class Tri { kFalse, kTrue, kUnknown };

/// AND and OR of two answers that may be unknown: one false (true) operand decides AND (OR).
inline Tri TriAnd(Tri a, Tri b) {
  if (a == Tri::kFalse || b == Tri::kFalse) return Tri::kFalse;
  return a == Tri::kTrue && b == Tri::kTrue ? Tri::kTrue : Tri::kUnknown;
}
inline Tri TriOr(Tri a, Tri b) {
  if (a == Tri::kTrue || b == Tri::kTrue) return Tri::kTrue;
  return a == Tri::kFalse && b == Tri::kFalse ? Tri::kFalse : Tri::kUnknown;
}

struct ConditionArg {
  CMakeValue value;
  bool quoted = false;  ///< quoted or bracket argument: never dereferenced
};

struct ConditionContext {
  std::function<const CMakeValue*(std::string_view)> variable;  ///< null when undefined
  std::function<bool(std::string_view)> env_defined;            ///< DEFINED ENV{x}: unknown when not given
  std::function<Tri(const std::string&)> exists;
  std::function<Tri(const std::string&)> is_directory;
  std::function<Tri(const std::string&)> is_symlink;
  std::function<Tri(std::string_view)> target;
  std::function<Tri(std::string_view)> command;
  /// CMAKE_MATCH_<n> after MATCHES: the groups of the match, none for no match
  std::function<void(const std::vector<std::string>&)> set_matches;
  /// Charges work to the evaluation's budget: each reduction level's tokens (their bytes and
  /// kConditionTokenWork each), and a MATCHES search (RegexWork) before it is made, which is
  /// not made, and undecided, when the budget is spent. False once it is.
  std::function<bool(size_t)> charge;
};

/// Conditions longer or more deeply parenthesized than these are undecided, not evaluated:
/// CMake reduces a condition in passes over all its arguments, and so would this.
constexpr size_t kMaxConditionArgs = 1000;
constexpr int kMaxConditionNesting = 32;
/// What a token costs each reduction level, beyond its bytes, in the work budget's bytes:
/// every level passes over all the tokens, so a long condition costs its length at each
/// level, and a loop testing one of kMaxConditionArgs arguments reaches the work budget
/// after some thousands of tests instead of running for all its commands.
constexpr size_t kConditionTokenWork = 64;

struct ConditionResult {
  Tri value = Tri::kFalse;
  std::string why;                   ///< for kUnknown: what was not known
  std::vector<std::string> missing;  ///< paths an EXISTS test found missing
};

ConditionResult EvaluateCondition(std::vector<ConditionArg> args, const ConditionContext& context);

/// CMake's version comparison: numeric components, missing ones are 0. <0, 0, >0.
int CompareVersions(std::string_view a, std::string_view b);

}  // namespace rocm_audit
