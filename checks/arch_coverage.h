// missing-arch and ccob-isa-compat: each --require-arch target against the device code of
// one file. Standalone code objects named after one processor (Tensile's *_gfx90a.co) are
// per-arch pieces, not whole builds: missing-arch-data covers them, this check skips them.
#pragma once

#include "audit/device_code.h"
#include "audit/walk.h"
#include "checks/check_context.h"

namespace rocm_audit {

void CheckArchCoverage(const WalkedFile& file, const DeviceInventory& inventory,
                       const CheckOptions& options, FindingSink& sink);

/// Whether the file is a per-arch artifact (its name names a GPU processor).
bool IsPerArchArtifact(const WalkedFile& file);

}  // namespace rocm_audit
