#include "audit/cmake/target_table.h"

namespace rocm_audit {

CMakeTarget* TargetTable::Find(const std::string& name) {
  for (CMakeTarget& t : targets_)
    if (t.name == name) return &t;
  return nullptr;
}

void TargetTable::Merge(TargetTable&& other) {
  for (CMakeTarget& t : other.targets_)
    if (!Find(t.name)) targets_.push_back(std::move(t));
}

}  // namespace rocm_audit
