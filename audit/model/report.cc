#include "audit/model/report.h"

#include <algorithm>

namespace rocm_audit {

size_t Report::Count(Severity s) const {
  return std::count_if(findings.begin(), findings.end(), [&](const Finding& f) { return f.severity == s; });
}

bool Report::HasFindingsAtOrAbove(Severity level) const {
  return std::any_of(findings.begin(), findings.end(), [&](const Finding& f) { return f.severity >= level; });
}

}  // namespace rocm_audit
