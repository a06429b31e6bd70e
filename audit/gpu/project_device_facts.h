// The report's view of a file's device code (audit/model/device_facts.h), projected from
// what the bundle reader found.
#pragma once

#include <vector>

#include "audit/gpu/arch_policy.h"
#include "audit/gpu/device_code.h"
#include "audit/model/device_facts.h"

namespace rocm_audit {

/// `offers` are inventory.Offers(), computed once by the caller.
DeviceFacts ToDeviceFacts(const DeviceInventory& inventory, const std::vector<ArchOffer>& offers);

}  // namespace rocm_audit
