// SARIF 2.1.0 (OASIS), as GitHub code scanning and other dashboards read it: one run,
// tool.driver.rules[] from the check table, one result per finding, ruleId = check ID.
#pragma once

#include <string>

#include "audit/model/report.h"

namespace rocm_audit {

std::string RenderSarif(const Report& report);

}  // namespace rocm_audit
