// `rocm-audit diff OLD NEW`: each side audited as the audit would audit it (a tree, a
// package or a set of them, a store path), with each ELF file's symbols kept, or read from
// a JSON report rocm-audit wrote with --symbols; then compared (compare.h). The result is a
// Report of comparison findings that every renderer renders, under the same policy.
#pragma once

#include <string>

#include "audit/model/report.h"
#include "engine/audit_request.h"

namespace rocm_audit {

/// `request` is the audit each side gets (its paths replaced by the side) and the policy of
/// the comparison's findings. False with `error` for a tool error of either side.
bool Diff(const AuditRequest& request, const std::string& old_input, const std::string& new_input,
          Report* report, std::string* error);

}  // namespace rocm_audit
