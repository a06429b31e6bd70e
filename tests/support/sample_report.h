// Reports built in code for the renderers' tests: fixed, so their output is too.
#pragma once

#include "audit/model/report.h"

namespace rocm_audit::testing {

Report SampleReport();

/// Appends `n` plain shared libraries (/p/lib/lib<i>.so, soname lib<i>.so.1) to the report's
/// files: a report longer than a batch of files[].
void AddPlainLibraries(Report* report, int n);

/// A fixed report with something of everything the renderers show: several files and
/// checks, root causes shared by files, an accepted finding, device code, a closure, a
/// CMake package, a disabled check. The golden-file tests render it in every format.
Report GoldenReport();

}  // namespace rocm_audit::testing
