// One class of defect: its stable ID, default severity, one-line title and generic remedy.
// The checks define one constant per rule; reports read them (SARIF rules[], legends).
// The ID is the JSON `check`, the SARIF ruleId and the suppression key: never rename one.
#pragma once

#include <string_view>

#include "audit/model/severity.h"

namespace rocm_audit {

struct Rule {
  std::string_view id;
  Severity severity;       ///< default severity (some checks downgrade per finding)
  std::string_view title;  ///< one line, for --list-checks and report legends
  std::string_view fix;    ///< the generic remedy, shown when a finding has no specific hint
};

}  // namespace rocm_audit
