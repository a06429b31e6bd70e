// JUnit XML, as GitLab, Jenkins and most CI dashboards read it: one test case per audited
// file (plus one per file that only the walk saw), failing when it has a finding at or
// above --fail-on; lower findings go to system-out.
#pragma once

#include <string>

#include "audit/model/report.h"

namespace rocm_audit {

std::string RenderJunit(const Report& report, Severity fail_on, bool fail_on_none);

}  // namespace rocm_audit
