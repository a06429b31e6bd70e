// malformed-bundle and bundle-id-mismatch: what the bundle reader found wrong, as findings
// that say where (section, archive member, offset) and why.
#pragma once

#include <string>

#include "audit/device_code.h"
#include "audit/finding.h"

namespace rocm_audit {

void CheckBundleIntegrity(const std::string& file, const DeviceInventory& inventory,
                          FindingSink& sink);

}  // namespace rocm_audit
