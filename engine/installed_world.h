// The installed world of one audit (design.md §1.1): the files judged (the top layer), the
// files installed beside them in the same operation (the other packages of a set, sibling
// trees), and the base they are installed over. Every input kind is audited in it: the
// world is a stack of root layers, top first, and what the top layers ship shadows the
// base, which never stands in for a file being installed.
#pragma once

#include <string>

#include "audit/model/report.h"
#include "engine/audit_request.h"
#include "engine/package_inputs.h"

namespace rocm_audit {

/// Rewrites `request`'s roots into the world's layers: the unpacked packages of a format
/// installed at the root of a system (.deb, .rpm) on top, then the --sibling trees, then
/// the base (the --root layers; / when there are none; nothing with --no-base). Without
/// such packages or siblings the --root layers are the world as given. Adds the packages'
/// names to `installing` and says in `inputs` what the world is. False with `error` when the
/// options contradict each other.
[[nodiscard]] bool ArrangeInstalledWorld(const PackageInputs& packages, AuditRequest* request,
                                         ReportInputs* inputs, std::string* error);

/// The installed copies of `request`'s --installing packages in each of its layers that has
/// a package database: the shared objects each owned there (hidden in the audit) and its
/// installed version, for the hints that name what a new version dropped
/// (CheckOptions::replaced).
void DescribeReplacedCopies(AuditRequest* request);

}  // namespace rocm_audit
