// GitLab Code Quality (the artifacts:reports:codequality format): a JSON array, one object
// per finding that counts, with description, check_name, a fingerprint stable across runs
// (from the finding key), severity (info ... blocker) and location {path, lines.begin}.
// Accepted findings are left out: GitLab has no notion of a suppressed issue.
#pragma once

#include <string>

#include "audit/model/report.h"

namespace rocm_audit {

/// Paths relative to `base_dir` (the repository root; "" = the working directory) where
/// the file lies below it, absolute otherwise.
std::string RenderGitlab(const Report& report, const std::string& base_dir);

}  // namespace rocm_audit
