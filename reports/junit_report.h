// JUnit XML, as Jenkins, GitLab and most CI dashboards read it (the Jenkins JUnit XSD):
// one test suite per check that ran, one test case per file and check. A case fails when
// the file has a finding of that check at or above --fail-on; accepted (waived or
// baselined) findings make it skipped; lower findings go to system-out. A check without
// findings is one passing case, so every check that ran shows on the dashboard.
#pragma once

#include <string>

#include "audit/model/report.h"

namespace rocm_audit {

std::string RenderJunit(const Report& report, Severity fail_on, bool fail_on_none);

}  // namespace rocm_audit
