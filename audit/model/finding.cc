#include "audit/model/finding.h"

namespace rocm_audit {

Finding MakeFinding(const Rule& rule, const std::string& file) {
  Finding f;
  f.check = std::string(rule.id);
  f.severity = rule.severity;
  f.file = file;
  f.hint = std::string(rule.fix);
  return f;
}

}  // namespace rocm_audit
