// A small Report with one error and one warning on one file, for the renderers' tests.
#pragma once

#include "audit/model/report.h"

namespace rocm_audit::testing {

Report SampleReport();

}  // namespace rocm_audit::testing
