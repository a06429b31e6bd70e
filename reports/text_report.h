// The human report: a summary line; the root causes, one line each, most severe first (the
// first screen says what to fix); then the findings by file with the fix under each; the
// device-code and CMake inventory; the summary again. Colour only when asked (on a TTY).
#pragma once

#include <string>

#include "audit/model/report.h"

namespace rocm_audit {

struct TextOptions {
  bool color = false;
  bool quiet = false;  ///< only findings at or above `min_severity`, no summary
  Severity min_severity = Severity::kNote;
  bool arch_matrix = false;  ///< append the files x GPU processors table
  bool verbose = false;      ///< device code: every file, not one line per directory of code objects
};

std::string RenderText(const Report& report, const TextOptions& options);

}  // namespace rocm_audit
