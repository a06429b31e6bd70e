// Reads every walked file (InspectFile) on a run's workers, which share one budget of zstd
// windows (DecodeMemory).
#pragma once

#include <functional>
#include <vector>

#include "audit/gpu/decode_memory.h"
#include "audit/inspect/inspected_file.h"

namespace rocm_audit {

/// InspectFile for each of `walked`, in parallel on `jobs` workers; `done` is called (from
/// a worker) as each file is read. `memory` is the run's, as given in `options`.
std::vector<InspectedFile> InspectFiles(const std::vector<WalkedFile>& walked, ObjectStore& store,
                                        const BundleReadOptions& options, DecodeMemory& memory, unsigned jobs,
                                        const std::function<void()>& done);

}  // namespace rocm_audit
