// SARIF 2.1.0 (OASIS), as GitHub code scanning and other dashboards read it: one run;
// tool.driver.rules[] from the rule table with short and full descriptions and help; one
// result per finding (ruleId = check ID) at line 1 of its file, with a fingerprint from the
// finding's stable key so an alert is tracked across runs and machines; file URIs relative
// to a base directory named in originalUriBaseIds; the invocation's exit code.
#pragma once

#include <string>

#include "audit/model/report.h"

namespace rocm_audit {

struct SarifOptions {
  /// URIs are relative to this directory (uriBaseId SRCROOT) when the file lies below it;
  /// absolute file:// URIs otherwise. Relative to the working directory; "" = it.
  std::string base_dir;
  int exit_code = 0;  ///< invocations[0].exitCode
};

std::string RenderSarif(const Report& report, const SarifOptions& options = {});

}  // namespace rocm_audit
