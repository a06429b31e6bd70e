// Reads every walked file (InspectFile) on a run's workers, which share one budget of zstd
// windows (DecodeMemory).
#pragma once

#include <functional>
#include <vector>

#include "audit/gpu/decode_memory.h"
#include "audit/inspect/inspected_file.h"

namespace rocm_audit {

/// Called from a worker as each file is read: its index in `walked` and what was read,
/// which the callee may use up and trim (the pipeline checks a file no loader fact concerns
/// at once, and drops its device code).
using FileRead = std::function<void(size_t index, InspectedFile& file)>;

/// InspectFile for each of `walked`, in parallel on `jobs` workers; `done` is called as each
/// file is read. `memory` is the run's, as given in `options`. Each walk entry is dropped once
/// its file is read (the InspectedFile holds a copy): the list is as long as the tree.
std::vector<InspectedFile> InspectFiles(std::vector<WalkedFile> walked, ObjectStore& store,
                                        const BundleReadOptions& options, DecodeMemory& memory, unsigned jobs,
                                        const FileRead& done);

}  // namespace rocm_audit
