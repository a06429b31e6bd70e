// A finding's identity across runs and machines, for waivers and baselines: the check,
// the file's path below the audited input that reached it, and the rule's key fields.
// Never a machine path, a time or an order, so a baseline made on a packager's laptop
// holds in CI.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "audit/model/finding.h"

namespace rocm_audit {

/// `file`'s path below the input (a PATH argument) that holds it: "lib/libx.so.1" for
/// input "build/tree"; the file's name when the input is the file itself; `file` as it is
/// when no input holds it. The longest input wins.
std::string PathBelowInput(const std::string& file, const std::vector<std::string>& inputs);

/// "check|path|field=value|..." over the rule's key fields present in the finding; a value
/// that names a path under an input is written below that input, as `path` is.
std::string FindingKey(const Finding& finding, std::string_view key_fields,
                       const std::vector<std::string>& inputs);

/// The key fields' values as text (strings as they are, other values as JSON), in order.
std::vector<std::string> KeyValues(const Finding& finding, std::string_view key_fields);

}  // namespace rocm_audit
