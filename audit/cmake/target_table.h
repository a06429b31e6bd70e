// The targets a package defines, in definition order. Copyable, like VariableScopes: an
// undecided if() forks it and keeps every target a branch defines.
#pragma once

#include <string>
#include <vector>

#include "audit/cmake/evaluation.h"

namespace rocm_audit {

class TargetTable {
 public:
  CMakeTarget* Find(const std::string& name);
  void Add(CMakeTarget target) { targets_.push_back(std::move(target)); }
  /// After the branches of an undecided if(): the targets only `other` defines are added.
  void Merge(TargetTable&& other);
  const std::vector<CMakeTarget>& All() const { return targets_; }

 private:
  std::vector<CMakeTarget> targets_;
};

}  // namespace rocm_audit
