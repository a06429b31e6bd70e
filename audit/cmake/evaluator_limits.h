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
  /// (RegexWork), over the whole evaluation: what a list grown in a loop or a 4 MB value
  /// copied 200,000 times costs, which neither bound above stops.
  size_t max_work_bytes = size_t(256) << 20;
};

/// What a variable, a target, a property or a list item costs the work budget beyond its
/// bytes whenever it is made or copied: a function's scope and a block() start as a copy of
/// the caller's, an undecided if() forks every scope and target, and an unquoted argument is
/// split into its items. Without it, 50 MB of variables copied into each of 10,000 calls, or
/// a loop forking them, ran for minutes on a few MB of charged bytes. LLVM 19's package
/// config, the largest known, then costs 39 MB (1,320 undecided if()s).
constexpr size_t kEntryWork = 64;
/// What each argument of a macro() or function() call costs: it is bound as ARGV<n> and
/// joined into ARGV and ARGN (1.2 us of CPU each with its expansion, on 33618bf). A list of
/// 524,288 items passed to a function 10,000 times ran for minutes (0.6 s a call); it now
/// stops at the first call, in 0.2 s.
constexpr size_t kArgumentWork = 1024;

}  // namespace rocm_audit
