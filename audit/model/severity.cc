#include "audit/model/severity.h"

namespace rocm_audit {

std::string_view SeverityName(Severity s) {
  switch (s) {
    case Severity::kNote: return "note";
    case Severity::kWarning: return "warning";
    case Severity::kError: return "error";
  }
  return "error";
}

bool ParseSeverity(std::string_view text, Severity* out) {
  if (text == "error")
    *out = Severity::kError;
  else if (text == "warning")
    *out = Severity::kWarning;
  else if (text == "note")
    *out = Severity::kNote;
  else
    return false;
  return true;
}

}  // namespace rocm_audit
