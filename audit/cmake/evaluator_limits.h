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

}  // namespace rocm_audit
