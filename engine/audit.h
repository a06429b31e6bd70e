// The audit engine: one call takes an AuditRequest to a finished Report. The phases, in
// order (design.md §1): unpack the packages among the PATHs; walk; evaluate CMake package
// configs; read every file once; the loader's facts of each loadable file and the run's
// symbol index; every enabled check, file by file and then over the tree; the policy;
// the report. A bad file is a finding; only tool errors stop a run.
#pragma once

#include <string>

#include "audit/model/report.h"
#include "engine/audit_request.h"
#include "engine/audit_sinks.h"

namespace rocm_audit {

/// Returns false (with `error`) only for tool errors: an input that does not exist, a
/// --root that is not a directory, no private directory for packages. Bad files and
/// hostile packages are findings in `report`, which is whole when this returns true: the
/// inputs, the files' facts (unless `sinks` took them), the findings with the policy
/// applied, and every rule the run could report.
[[nodiscard]] bool Audit(const AuditRequest& request, AuditSinks& sinks, Report* report, std::string* error);

/// The same, with no sink: the Report keeps every file's facts.
[[nodiscard]] bool Audit(const AuditRequest& request, Report* report, std::string* error);

}  // namespace rocm_audit
