// `rocm-audit diff OLD NEW`: each side audited as the audit would audit it (a tree, a
// package or a set of them, a store path), with each ELF file's symbols kept, or read from
// a JSON report rocm-audit wrote with --symbols; then compared (compare.h). The result is a
// Report of comparison findings that every renderer renders, under the same policy.
#pragma once

#include <string>
#include <vector>

#include "audit/model/report.h"
#include "engine/audit_request.h"

namespace rocm_audit {

/// `request` is the audit each side gets (its paths replaced by the side) and the policy of
/// the comparison's findings. Each side is one input, or a set of them installed together
/// (packages of one install, as an audit of several PATHs takes them); a JSON report is a
/// side alone. `consumer_indexes`: files of `rocm-audit index` whose consumers are hit beside
/// the base's (engine/consumer_index.h). False with `error` for a tool error of either side
/// or of an index.
[[nodiscard]] bool Diff(const AuditRequest& request, std::vector<std::string> old_inputs,
                        std::vector<std::string> new_inputs, Report* report, std::string* error,
                        const std::vector<std::string>& consumer_indexes = {});

}  // namespace rocm_audit
