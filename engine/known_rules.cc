#include "engine/known_rules.h"

#include <algorithm>

namespace rocm_audit {

std::vector<Rule> KnownRules() {
  std::vector<Rule> out;
  for (const Rule* r : AllRules()) out.push_back(*r);
  out.push_back(kUnusedWaiverRule);
  return out;
}

EnabledRules::EnabledRules(const Policy& policy) {
  for (const Rule* r : AllRules())
    if (!RuleEnabled(policy, r->id)) disabled_.push_back(std::string(r->id));
}

bool EnabledRules::Runs(const Check& check) const {
  for (const Rule& r : check.rules)
    if (std::find(disabled_.begin(), disabled_.end(), r.id) == disabled_.end()) return true;
  return false;
}

unsigned EnabledRules::Needs() const {
  unsigned needs = kNeedsElfAndLoader;
  for (const Check* c : AllChecks())
    if (Runs(*c)) needs |= c->needs;
  return needs;
}

}  // namespace rocm_audit
