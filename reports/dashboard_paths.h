// What dashboards (SARIF, GitLab Code Quality) need of a finding beyond the model: its
// file relative to the repository root they resolve paths against, and a fingerprint that
// stays the same across runs and machines (from the finding's stable key).
#pragma once

#include <optional>
#include <string>

#include "audit/model/finding.h"

namespace rocm_audit {

/// `base_dir` as an absolute, normalised directory ending in '/' ("" = the working directory).
std::string BaseDirectory(const std::string& base_dir);

/// `file` relative to `base` (from BaseDirectory); nullopt when it lies outside it.
std::optional<std::string> PathBelowBase(const std::string& file, const std::string& base);

/// The absolute, normalised form of `file`.
std::string AbsolutePath(const std::string& file);

/// 16 hex digits of a hash of the finding's key (of its check and file before keys exist).
std::string Fingerprint(const Finding& finding);

}  // namespace rocm_audit
