// The targets a package defines, in definition order. Copyable, like VariableScopes: an
// undecided if() forks it and keeps every target a branch defines.
#pragma once

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "audit/cmake/evaluation.h"
#include "audit/cmake/evaluator_limits.h"

namespace rocm_audit {

class TargetTable {
 public:
  CMakeTarget* Find(const std::string& name);
  bool Has(const std::string& name) const { return index_.count(name) > 0; }
  void Add(CMakeTarget target);
  /// After the branches of an undecided if(): the targets only `other` defines are added.
  void Merge(TargetTable&& other);
  const std::vector<CMakeTarget>& All() const { return targets_; }
  /// Every target, moved out: the table is empty after it (the evaluation's end, where a
  /// copy of each target's property and site maps was a tenth of the run's allocations).
  std::vector<CMakeTarget> TakeAll() {
    index_.clear();
    return std::exchange(targets_, {});
  }
  /// What copying the table costs the work budget: names and property values, and
  /// kEntryWork a target and a property.
  size_t CopyCost() const;

 private:
  std::vector<CMakeTarget> targets_;
  // Where each name is in targets_: a config defining targets in a loop looks each one up,
  // and a scan per lookup would make the loop quadratic in the targets.
  std::unordered_map<std::string, size_t> index_;
};

}  // namespace rocm_audit
