// The report's view of a file's device code (audit/model/device_facts.h), projected from
// what the bundle reader found.
#pragma once

#include <vector>

#include "audit/gpu/arch_policy.h"
#include "audit/gpu/device_code.h"
#include "audit/model/device_facts.h"

namespace rocm_audit {

/// `offers` are inventory.Offers(), computed once by the caller; `compat` decides whether the
/// distro's ISA compatibility counts as serving a processor.
DeviceFacts ToDeviceFacts(const DeviceInventory& inventory, const std::vector<ArchOffer>& offers,
                          IsaCompat compat = IsaCompat::kNone);

}  // namespace rocm_audit
