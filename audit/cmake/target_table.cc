#include "audit/cmake/target_table.h"

namespace rocm_audit {

CMakeTarget* TargetTable::Find(const std::string& name) {
  auto it = index_.find(name);
  return it == index_.end() ? nullptr : &targets_[it->second];
}

void TargetTable::Add(CMakeTarget target) {
  // The first definition keeps the name, as a scan in definition order found it.
  index_.emplace(target.name, targets_.size());
  targets_.push_back(std::move(target));
}

void TargetTable::Merge(TargetTable&& other) {
  for (CMakeTarget& t : other.targets_)
    if (!Find(t.name)) Add(std::move(t));
}

size_t TargetTable::CopyCost() const {
  size_t bytes = 0;
  for (const CMakeTarget& t : targets_) {
    bytes += t.name.size() + kEntryWork;
    for (const auto& [name, value] : t.properties) bytes += name.size() + value.text.size() + kEntryWork;
  }
  return bytes;
}

}  // namespace rocm_audit
