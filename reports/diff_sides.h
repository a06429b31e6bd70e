// The HTML report of `diff OLD NEW`, side by side: for each file a comparison finding is
// about, what OLD had and what NEW has of the thing that changed (exported symbols, SONAME,
// processors, CMake targets, components and dependency versions), in two columns, and who
// it hits; and the verdict per package of NEW that heads the page.
#pragma once

#include <string>

#include "audit/model/report.h"

namespace rocm_audit {

/// The "OLD and NEW" section; "" when the report has no comparison finding to show so.
std::string DiffSidesSection(const Report& report);

/// The verdict per package of NEW (Report::verdicts), first of a diff's page; "" without.
std::string DiffVerdictSection(const Report& report);

}  // namespace rocm_audit
