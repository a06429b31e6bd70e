// Whole audits in-process, through the engine the command calls (checks, policy, report), and
// lookups in the Report they produce.
#pragma once

#include <string>
#include <vector>

#include "audit/model/report.h"
#include "engine/audit.h"

namespace rocm_audit::testing {

/// An in-process audit of `paths`, rooted at `root` (empty: the host), with no
/// ld.so.conf unless `conf` names one inside the root.
Report Audit(const std::vector<std::string>& paths, const std::string& root,
             std::vector<std::string> library_path = {}, std::string conf = "/etc/ld.so.conf");
Report AuditWith(const AuditRequest& options);

/// Findings of one check, optionally only those about `file`.
std::vector<Finding> FindingsOf(const Report& report, const std::string& check, const std::string& file = "");

/// The files `findings` are about, in their order.
std::vector<std::string> FilesOf(const std::vector<Finding>& findings);
/// The path of every audited file (Report::files), in report order.
std::vector<std::string> AuditedPaths(const Report& report);

/// The facts recorded for `file` (null when it was not audited).
const FileFacts* FactsOf(const Report& report, const std::string& file);
/// The closure (resolved paths, load order) rocm-audit recorded for `file`.
std::vector<std::string> ClosureOf(const Report& report, const std::string& file);
std::vector<std::string> UnresolvedOf(const Report& report, const std::string& file);

}  // namespace rocm_audit::testing
