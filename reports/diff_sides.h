// The HTML report of `diff OLD NEW`, side by side: for each file a comparison finding is
// about, what OLD had and what NEW has of the thing that changed (exported symbols, SONAME,
// processors, CMake targets, components and dependency versions), in two columns.
#pragma once

#include <string>

#include "audit/model/report.h"

namespace rocm_audit {

/// The "OLD and NEW" section; "" when the report has no comparison finding to show so.
std::string DiffSidesSection(const Report& report);

}  // namespace rocm_audit
