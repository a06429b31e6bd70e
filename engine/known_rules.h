// Which rules exist and which run. A check runs when at least one of its rules is enabled
// by the policy; the facts a run reads follow from the checks that run (facts on demand:
// no device code is decoded and no CMake config evaluated unless a running check needs it).
#pragma once

#include <string>
#include <vector>

#include "audit/model/rule.h"
#include "checks/registry.h"
#include "policy/policy.h"

namespace rocm_audit {

/// Every rule a finding can name: the checks', the policy's own and those of `diff`.
std::vector<Rule> KnownRules();

/// The checks a run with `policy` runs, decided once per run: a check runs unless every rule
/// it reports is disabled.
class EnabledRules {
 public:
  explicit EnabledRules(const Policy& policy);

  /// The checks that run, in registry order.
  const std::vector<const Check*>& RunningChecks() const { return running_; }
  /// The Needs bits of every check that runs, with the ELF and loader facts every run reads.
  unsigned Needs() const { return needs_; }

 private:
  std::vector<const Check*> running_;
  unsigned needs_ = kNeedsElfAndLoader;
};

}  // namespace rocm_audit
