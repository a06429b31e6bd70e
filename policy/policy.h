// The run's policy, applied to the findings between the checks and the reports: which
// rules run (--enable/--disable), at which severity (--severity), and which findings are
// accepted (--suppress waivers, --baseline). Accepted findings stay in the report, marked
// with why, and count toward neither the summary's severities nor the exit status.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "audit/model/report.h"
#include "audit/model/rule.h"
#include "policy/waiver_file.h"

namespace rocm_audit {

struct Policy {
  std::vector<std::string> enable;                         ///< rule-ID globs; empty: every rule
  std::vector<std::string> disable;                        ///< rule-ID globs, applied after `enable`
  std::vector<std::pair<std::string, Severity>> severity;  ///< ID glob -> level; the last match wins
  std::vector<Waiver> waivers;                             ///< every --suppress file, in order
  std::vector<std::string> baseline_keys;                  ///< findings --baseline accepts
  std::string baseline_file;                               ///< empty: no baseline
};

/// The policy's own rule: a waiver that accepted no finding (stale, or mistyped).
extern const Rule kUnusedWaiverRule;

/// False with `error` for an --enable/--disable/--severity glob that matches no rule.
[[nodiscard]] bool CheckPolicyNames(const Policy& policy, std::span<const Rule> rules, std::string* error);

/// Whether the rule runs: enabled (or no --enable) and not disabled.
bool RuleEnabled(const Policy& policy, std::string_view id);

/// Drops the findings of disabled rules, sets severities, keys and suppressions, and adds
/// an unused-waiver note per waiver that matched nothing. `report->rules` must hold every
/// rule the run could report.
void ApplyPolicy(const Policy& policy, Report* report);

}  // namespace rocm_audit
