// missing-arch-data: rocBLAS and hipBLASLt load Tensile kernels and solution tables per
// processor at run time. Device code for a processor whose data is absent fails with
// rocblas_status 14 ("excluded from build"); data without code is a half-built package.
#pragma once

#include "audit/device_code.h"
#include "audit/walk.h"
#include "checks/check_context.h"

namespace rocm_audit {

/// Returns the data directory's description for the report (null when not applicable).
nlohmann::ordered_json CheckArchDataCoverage(const WalkedFile& file, const DeviceInventory& inventory,
                                             FindingSink& sink);

}  // namespace rocm_audit
