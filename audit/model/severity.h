// How bad a finding is. Ordered: a finding at or above --fail-on fails the run.
#pragma once

#include <string_view>

namespace rocm_audit {

enum class Severity { kNote = 0, kWarning = 1, kError = 2 };

std::string_view SeverityName(Severity s);  ///< "note" | "warning" | "error"
/// Parses "error" | "warning" | "note"; returns false on anything else.
[[nodiscard]] bool ParseSeverity(std::string_view text, Severity* out);

}  // namespace rocm_audit
