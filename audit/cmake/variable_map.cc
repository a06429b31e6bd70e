#include "audit/cmake/variable_map.h"

namespace rocm_audit {
namespace {

bool Same(const CMakeValue& a, const CMakeValue& b) {
  return a.known == b.known && a.maybe_unset == b.maybe_unset && a.text == b.text && a.why == b.why;
}

}  // namespace

void VariableMap::Freeze() {
  if (shared_ && shared_.use_count() > 1) {
    // A value set again as the shared map holds it (each Qt module's config sets what
    // Qt6Config.cmake set) is no change: kept, it would be one more copy for the run.
    for (auto it = changed_.begin(); it != changed_.end();) {
      auto base = shared_->entries.find(it->first);
      const bool same = it->second ? base != shared_->entries.end() && Same(*it->second, base->second)
                                   : base == shared_->entries.end();
      it = same ? changed_.erase(it) : std::next(it);
    }
  }
  // A frozen map is adopted as it is, its changes copied by each adopter: many go into a map
  // of its own (Compact), which its adopters share.
  Compact();
  if (adopted_ && shared_ != adopted_ && changed_.empty() && shared_.use_count() == 1) Rebase();
  adopted_.reset();
  if (!shared_ || shared_->listed) return;
  for (const auto& [name, value] : shared_->entries)
    if (CallerKeptVariables::MayKeep(name)) shared_->kept.push_back(&name);
  shared_->listed = true;
}

// The result starts as `found` and is corrected where this scope's value is to stay: a name
// `keep` keeps, or one `found` does not set. Only names either map changed since a common
// shared map can need it; with none in common, every name set here, and those `found` sets
// that `keep` may keep (listed when it was frozen).
void VariableMap::Adopt(const VariableMap& found, const CallerKeptVariables& keep) {
  const bool same_base = shared_ && shared_ == found.shared_;
  if (!same_base && found.Size() < Size()) {
    // A map smaller than this scope (Threads' after Qt6Gui's) is set here, name by name.
    found.ForEach([&](const std::string& name, const CMakeValue& value) {
      if (keep.Keeps(name)) return;
      if (const CMakeValue* now = Find(name); !now || !Same(*now, value)) Set(name, value);
    });
    return;
  }
  VariableMap next = found;
  auto settle = [&](const std::string& name) {
    // `next` holds `found`'s value of each name until it is settled, and then holds it still
    // when that is what the name wants.
    const CMakeValue* theirs = found.Find(name);
    if (theirs && !keep.Keeps(name)) return;
    const CMakeValue* want = Find(name);
    const CMakeValue* now = next.Find(name);
    if (!want)
      next.Erase(name);
    else if (!now || !Same(*now, *want))
      next.Set(name, *want);
  };
  for (const auto& [name, value] : found.changed_) settle(name);
  if (same_base) {
    for (const auto& [name, value] : changed_) settle(name);
  } else {
    ForEach([&](const std::string& name, const CMakeValue&) { settle(name); });
    if (found.shared_) {
      if (found.shared_->listed) {
        for (const std::string* name : found.shared_->kept) settle(*name);
      } else {  // not frozen (a test's map): every name it holds
        for (const auto& [name, value] : found.shared_->entries) settle(name);
      }
    }
  }
  std::shared_ptr<Shared> adopted = std::move(adopted_);
  *this = std::move(next);
  adopted_ = adopted && (!found.shared_ || adopted->entries.size() > found.shared_->entries.size())
                 ? std::move(adopted)
                 : found.shared_;
}

// One walk of each map; the values that differ are moved, as no other map shares this one.
void VariableMap::Rebase() {
  const Map& base = adopted_->entries;
  Map& mine = shared_->entries;
  size_t differ = 0;
  for (const auto& [name, value] : mine)
    if (auto it = base.find(name); it == base.end() || !Same(it->second, value)) ++differ;
  for (const auto& [name, value] : base) differ += !mine.count(name);
  if (differ > mine.size() / 2) return;
  for (const auto& [name, value] : base)
    if (!mine.count(name)) changed_.emplace(name, std::nullopt);
  for (auto it = mine.begin(); it != mine.end();) {
    auto at = base.find(it->first);
    if (at != base.end() && Same(at->second, it->second)) {
      ++it;
      continue;
    }
    auto node = mine.extract(it++);
    changed_.emplace(std::move(node.key()), std::move(node.mapped()));
  }
  shared_ = adopted_;
}

}  // namespace rocm_audit
