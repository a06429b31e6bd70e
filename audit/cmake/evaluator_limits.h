// The bounds of one static evaluation: a package's list files are input, not trusted code.
#pragma once

#include <cstddef>

namespace rocm_audit {

struct EvaluatorLimits {
  size_t max_commands = 200000;   ///< commands run, over the whole evaluation
  int max_depth = 32;             ///< nested includes and calls
  size_t max_iterations = 10000;  ///< per loop
  size_t max_file_bytes = 4 << 20;
  size_t max_value_bytes = 4 << 20;  ///< a variable's value, and all of one command's arguments
  /// Bytes of values read, expanded and set, and regular-expression searches at their cost
  /// (RegexWork), over the whole evaluation: what a list grown in a loop, or a value of
  /// max_value_bytes copied by each of max_commands commands, costs, which no bound above stops.
  size_t max_work_bytes = size_t(256) << 20;
  /// Stop at the first if() or foreach() that is not decided: for an evaluation whose answer
  /// is taken only when decided throughout (CMake's own Find modules, which mostly probe the
  /// consumer's compilers and programs), the rest is work thrown away.
  bool decided_only = false;
};

/// What a variable, a target, a property or a list item costs the work budget beyond its
/// bytes whenever it is made or copied: a function's scope and a block() start as a copy of
/// the caller's, an undecided if() forks every scope and target, and an unquoted argument is
/// split into its items. The time such a copy takes grows with the number of entries, not
/// only with their bytes: without this charge, a loop of calls, or of undecided if()s, over
/// a scope of many short variables copies them for minutes while it is charged little. At
/// this price the largest package configs known (LLVM's, with over a thousand undecided
/// if()s) stay well within max_work_bytes.
constexpr size_t kEntryWork = 64;
/// What each argument of a macro() or function() call costs: a call binds its arguments
/// (ARGV<n> each, joined into ARGV and ARGN), which takes far longer than copying the
/// argument's bytes. Charged so that a loop of calls with huge lists stops at the budget,
/// at the first such call, instead of binding each list again on every iteration; priced
/// near what binding one costs against copying a byte, so that max_work_bytes bounds the
/// time of calls as it bounds that of copies.
constexpr size_t kArgumentWork = 1024;
/// How many names CMakeEvaluation::unset_in_conditions keeps: past it a generated name read
/// in a loop grows it no more (a caller's value of a name left out is not given).
constexpr size_t kMaxUnsetInConditions = 512;
/// Likewise for CMakeEvaluation::absent_targets_tested.
constexpr size_t kMaxAbsentTargetsTested = 512;

}  // namespace rocm_audit
