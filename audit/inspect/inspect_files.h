// Reads every walked file (InspectFile) on a run's workers, which share one budget of zstd
// windows (DecodeMemory).
#pragma once

#include <functional>
#include <vector>

#include "audit/gpu/decode_memory.h"
#include "audit/inspect/inspected_file.h"
#include "audit/model/boxed.h"

namespace rocm_audit {

/// Called from a worker as each file is read: its index in `walked` and what was read,
/// which the callee may use up and trim (the pipeline checks a file no loader fact concerns
/// at once, and drops its device code). It returns whether the file is wanted later; a file
/// that is not is freed at once, and its slot in the result is empty.
using FileRead = std::function<bool(size_t index, InspectedFile& file)>;

/// InspectFile for each of `walked`, in parallel on `jobs` workers; `done` is called as each
/// file is read (without it, every file is kept). `memory` is the run's, as given in
/// `options`. The walk's list is freed once every file is read (an InspectedFile holds a
/// copy of its entry). The result is as long as the tree, but a slot costs 8 bytes, and holds
/// a file only where `done` keeps it: most of a ROCm tree's audited files are GPU code
/// objects and bundles that nothing reads after their own checks.
std::vector<Boxed<InspectedFile>> InspectFiles(WalkedFiles walked, ObjectStore& store,
                                               const BundleReadOptions& options, DecodeMemory& memory,
                                               unsigned jobs, const FileRead& done);

}  // namespace rocm_audit
