// new-finding and fixed-finding: the audit findings of the two sides, matched by the key
// --baseline matches them by (policy/finding_key.h), its paths taken below their install
// prefix (installed_layout.h): a defect of a file installed at another prefix on the other
// side is the same defect.
#include <set>

#include "checks/comparison_rules.h"
#include "diff/compare.h"
#include "diff/installed_layout.h"

namespace rocm_audit {
namespace {

std::set<std::string> Keys(const Side& side) {
  std::set<std::string> out;
  for (const Finding& f : side.findings) out.insert(KeyBelowPrefix(f.key));
  return out;
}

Finding Counterpart(const Rule& rule, const Finding& of, const char* where) {
  Finding f = MakeFinding(rule, of.file);
  f.message = std::string(where) + of.message + " (" + of.check + ")";
  f.fields = {{"rule", of.check}, {"baseline_key", of.key}};
  return f;
}

}  // namespace

void CompareFindings(const Side& old_side, const Side& new_side, FindingSink& out) {
  const std::set<std::string> before = Keys(old_side);
  const std::set<std::string> after = Keys(new_side);
  // An accepted finding (a waiver or the baseline) is neither new nor fixed news.
  for (const Finding& f : new_side.findings)
    if (!f.suppressed && !before.count(KeyBelowPrefix(f.key))) {
      Finding n = Counterpart(kNewFindingRule, f, "new in NEW: ");
      n.severity = f.severity;
      out.Add(std::move(n));
    }
  for (const Finding& f : old_side.findings)
    if (!f.suppressed && !after.count(KeyBelowPrefix(f.key)))
      out.Add(Counterpart(kFixedFindingRule, f, "fixed in NEW: "));
}

}  // namespace rocm_audit
