// The human report: findings grouped by file, most severe first, the fix under each, and
// a one-line summary. Colour only when asked (the CLI asks on a TTY).
#pragma once

#include <string>

#include "audit/model/report.h"

namespace rocm_audit {

struct TextOptions {
  bool color = false;
  bool quiet = false;  ///< only findings at or above `min_severity`, no summary
  Severity min_severity = Severity::kNote;
  bool arch_matrix = false;  ///< append the files x GPU processors table
};

std::string RenderText(const Report& report, const TextOptions& options);

}  // namespace rocm_audit
