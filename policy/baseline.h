// --baseline: an earlier JSON report whose findings are accepted as they are, so that a
// gate adopted on a tree with known defects fails only for new ones. A finding is "the
// same" when its key is (finding_key.h): reports since keys existed carry them; an older
// report's keys are computed from its check, file and fields.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "audit/model/rule.h"

namespace rocm_audit {

/// The keys of every finding in the report `json_text` (suppressed ones included). False
/// with `error` when it is not a rocm-audit JSON report of schema_version 1.
[[nodiscard]] bool ReadBaselineKeys(std::string_view json_text, std::span<const Rule> rules,
                                    std::vector<std::string>* keys, std::string* error);

}  // namespace rocm_audit
