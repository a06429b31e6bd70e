#include "audit/model/report.h"

#include <algorithm>

namespace rocm_audit {

size_t Report::Count(Severity s) const {
  return std::count_if(findings.begin(), findings.end(),
                       [&](const Finding& f) { return !f.suppressed && f.severity == s; });
}

size_t Report::CountSuppressed(std::string_view kind) const {
  return std::count_if(findings.begin(), findings.end(),
                       [&](const Finding& f) { return f.suppressed && f.suppressed->kind == kind; });
}

bool Report::HasFindingsAtOrAbove(Severity level) const {
  return std::any_of(findings.begin(), findings.end(),
                     [&](const Finding& f) { return !f.suppressed && f.severity >= level; });
}

}  // namespace rocm_audit
