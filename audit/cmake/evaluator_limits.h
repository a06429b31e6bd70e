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
};

}  // namespace rocm_audit
