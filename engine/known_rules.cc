#include "engine/known_rules.h"

#include <algorithm>

#include "engine/comparison_rules.h"
#include "engine/not_built_packages.h"
#include "engine/run_checks.h"

namespace rocm_audit {

std::vector<Rule> KnownRules() {
  std::vector<Rule> out;
  for (const Rule* r : AllRules()) out.push_back(*r);
  out.push_back(kFindingLimitRule);
  out.push_back(kUnusedWaiverRule);
  out.push_back(kNotBuiltSiblingRule);
  for (const Rule* r : ComparisonRules()) out.push_back(*r);
  return out;
}

EnabledRules::EnabledRules(const Policy& policy) {
  for (const Check* check : AllChecks()) {
    const bool runs = std::any_of(check->rules.begin(), check->rules.end(),
                                  [&](const Rule& r) { return RuleEnabled(policy, r.id); });
    if (!runs) continue;
    running_.push_back(check);
    needs_ |= check->needs;
  }
}

}  // namespace rocm_audit
