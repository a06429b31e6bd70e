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

}  // namespace rocm_audit
