// The audit of the PATHs once the packages among them stand in as their unpacked tree: the
// phases from the walk to the findings (engine/audit.h lists them).
#pragma once

#include <vector>

#include "audit/model/report.h"
#include "audit/unpack/unpack.h"
#include "engine/audit_request.h"
#include "engine/audit_sinks.h"
#include "engine/known_rules.h"

namespace rocm_audit {

/// Fills the report's loader inputs (roots, library path, ld.so.conf directories), the walk
/// counts, every audited file's facts (unless `sinks` takes them) and every finding, each
/// file's findings in walk order and then the tree's; the policy is not applied yet.
void AuditTree(const AuditRequest& request, const EnabledRules& enabled,
               const std::vector<UnpackProblem>& unpack_problems, AuditSinks& sinks, Report* report);

/// Gives what the malloc arenas hold free back to the system (malloc_trim), once the run has
/// grown to kGrownWorthTrimming of peak RSS: a trim gives back every free page range of
/// every arena, a madvise each that flushes the TLB of every core (72 of them after the
/// loader checks over sid-root, which peak at 48 MB and free a few). Asking the arenas what
/// they hold free (mallinfo2) walks every free chunk, and costs as much.
void TrimFreedMemory();
inline constexpr long kGrownWorthTrimming = 128L << 20;

}  // namespace rocm_audit
