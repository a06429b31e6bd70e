// The findings that count, grouped into root causes for the first screen of the text
// report (and any dashboard that wants one line per defect): one missing libgcc_s.so.1
// needed by 40 files is one cause, not 40 findings. How a rule's findings group, and the
// line each group gets, are declared by the rule (Rule::cause_fields, Rule::cause).
#pragma once

#include <string>
#include <vector>

#include "audit/model/report.h"

namespace rocm_audit {

struct RootCause {
  std::string check;
  Severity severity = Severity::kNote;  ///< the group's most severe finding
  std::string line;                     ///< the rule's cause line, filled in
  size_t findings = 0;
  std::vector<std::string> files;  ///< distinct, in report order
};

/// Most severe first, then (a diff's) breaks before new-finding and fixed-finding, then the
/// causes with more findings, then report order.
std::vector<RootCause> RootCauses(const Report& report);

}  // namespace rocm_audit
