// The table of checks: stable IDs, default severities, and what fixes each class of defect.
// The ID is the JSON `check`, the SARIF ruleId and the suppression key: never rename one.
#pragma once

#include <span>
#include <string_view>

#include "audit/finding.h"

namespace rocm_audit {

struct CheckInfo {
  std::string_view id;
  Severity severity;       ///< default severity (some checks downgrade per finding)
  std::string_view title;  ///< one line, for --list-checks and report legends
  std::string_view fix;    ///< the generic remedy, shown when a finding has no specific hint
};

std::span<const CheckInfo> AllChecks();
/// Returns nullptr for an unknown ID.
const CheckInfo* FindCheck(std::string_view id);

}  // namespace rocm_audit
