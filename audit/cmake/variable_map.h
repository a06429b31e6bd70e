// The variables of one scope, copied in time proportional to what changed since the copy it
// shares: a function() call starts its scope as a copy of its caller's and an undecided if()
// runs each branch on a copy of the state (CMake's cmStateSnapshot copies them too), and
// Qt6's configs hold well over a thousand variables, so a full copy per call or fork was
// most of an evaluation's time and allocations. The copies share one map of the variables
// as they were when the first copy was made; each keeps what it set or unset since, on top.
// The same sharing carries an evaluation's variables to the packages that find it: its top
// scope is kept frozen (CMakeVariables), and a find_package() of it adopts that map as its
// own shared map instead of setting each of Qt6Core's ~1500 variables again (Adopt).
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "audit/cmake/caller_kept_variables.h"
#include "audit/cmake/evaluator_limits.h"
#include "audit/cmake/value.h"

namespace rocm_audit {

/// Looks a name up by string_view without making a std::string of it.
struct VariableNameHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

class VariableMap {
 public:
  VariableMap() = default;
  VariableMap(const VariableMap& o)
      : shared_(o.shared_), adopted_(o.adopted_), changed_(o.changed_), cost_(o.cost_) {
    Copied(changed_.size());
  }
  VariableMap& operator=(const VariableMap& o) {
    if (this == &o) return *this;
    shared_ = o.shared_;
    adopted_ = o.adopted_;
    changed_ = o.changed_;
    cost_ = o.cost_;
    Copied(changed_.size());
    return *this;
  }
  VariableMap(VariableMap&&) = default;
  VariableMap& operator=(VariableMap&&) = default;

  /// Variables copied one by one in this process (a copy's own changes, a map made its own):
  /// what the cost tests count.
  static size_t EntriesCopied() { return copied_.load(std::memory_order_relaxed); }

  /// The value of `name`, or null when unset.
  const CMakeValue* Find(std::string_view name) const {
    if (auto it = changed_.find(name); it != changed_.end()) return it->second ? &*it->second : nullptr;
    if (!shared_) return nullptr;
    auto it = shared_->entries.find(name);
    return it == shared_->entries.end() ? nullptr : &it->second;
  }
  /// Neither Set() nor Erase() moves another name's value: a value found stays where it is
  /// until its own name is set or unset, or Compact() runs.
  void Set(const std::string& name, CMakeValue value) {
    if (const CMakeValue* old = Find(name)) cost_ -= EntryCost(name, *old);
    cost_ += EntryCost(name, value);
    if (WritesInPlace())
      shared_->Written().insert_or_assign(name, std::move(value));
    else
      changed_.insert_or_assign(name, std::move(value));
  }
  void Erase(const std::string& name) {
    const CMakeValue* old = Find(name);
    if (!old) return;
    cost_ -= EntryCost(name, *old);
    if (WritesInPlace())
      shared_->Written().erase(name);
    else if (shared_->entries.count(name))
      changed_.insert_or_assign(name, std::nullopt);
    else
      changed_.erase(name);
  }
  /// Before a copy, where no value found is held: what changed goes into the shared map when
  /// no other copy shares it, or into a map of its own once it is a large part of the whole
  /// (copies then copy that much less, and a lookup finds most names in one place).
  void Compact() {
    if (changed_.empty()) return;
    if (shared_.use_count() != 1) {
      if (changed_.size() <= 32 + shared_->entries.size() / 4) return;
      shared_ = std::make_shared<Shared>(Shared{shared_->entries});
      Copied(shared_->entries.size());
    }
    Map& entries = shared_->Written();
    for (auto& [name, value] : changed_)
      if (value)
        entries.insert_or_assign(name, std::move(*value));
      else
        entries.erase(name);
    changed_.clear();
  }

  /// What copying the scope costs the work budget: its bytes and kEntryWork a variable, as
  /// a copy of every entry did (the budget's unit is unchanged, only its price to compute).
  size_t CopyCost() const { return cost_; }

  /// `f(name, value)` for every variable set, in no particular order.
  template <class F>
  void ForEach(F&& f) const {
    for (const auto& [name, value] : changed_)
      if (value) f(name, *value);
    if (shared_)
      for (const auto& [name, value] : shared_->entries)
        if (!changed_.count(name)) f(name, value);
  }
  /// Kept unchanged from here on, as what an evaluation left (CMakeVariables), in the least
  /// room: what was set again as the shared map holds it is dropped, many changes go into a
  /// map of its own, and the shared map lists the names Adopt() must look at in it
  /// (CallerKeptVariables::MayKeep). A map shared with another thread is always frozen
  /// already: only a frozen map's is ever adopted.
  void Freeze();
  /// find_package() of a package whose list files left `found` (frozen): each variable it
  /// sets is set here, but those `keep` keeps; what else is set here stays. This map then
  /// shares `found`'s, so what it costs is what either changed since their common map, or,
  /// with none in common, the variables set here.
  void Adopt(const VariableMap& found, const CallerKeptVariables& keep);
  /// `f(name)` for every name whose value may differ from `other`'s: only those either set or
  /// unset since their common copy when they share one, every name otherwise.
  template <class F>
  void ForEachMaybeDifferent(const VariableMap& other, F&& f) const {
    if (shared_ != other.shared_) {
      ForEach([&](const std::string& name, const CMakeValue&) { f(name); });
      other.ForEach([&](const std::string& name, const CMakeValue&) { f(name); });
      return;
    }
    for (const auto& [name, value] : changed_) f(name);
    for (const auto& [name, value] : other.changed_) f(name);
  }

 private:
  using Map = std::unordered_map<std::string, CMakeValue, VariableNameHash, std::equal_to<>>;
  struct Shared {
    Map entries;
    /// The names of `entries` some find_package() keeps of its caller, listed when the map
    /// is frozen (Freeze), for Adopt(); a write in place drops the list. The keys of a node
    /// map stay where they are, and a run keeps thousands of frozen maps.
    std::vector<const std::string*> kept{};
    bool listed = false;
    Map& Written() {
      if (listed) kept.clear(), listed = false;
      return entries;
    }
  };
  /// Freeze(): a map of its own kept as what differs from the largest map adopted, over it,
  /// when that is at most half of it.
  void Rebase();
  /// About how many variables are set: those of the shared map and the changes on top.
  size_t Size() const { return (shared_ ? shared_->entries.size() : 0) + changed_.size(); }
  static size_t EntryCost(const std::string& name, const CMakeValue& v) {
    return name.size() + v.text.size() + v.why.size() + kEntryWork;
  }
  /// Writes go into the shared map while no other copy shares it and nothing changed on top
  /// of it. Each evaluation (and its copies) stays on one thread.
  bool WritesInPlace() {
    if (!shared_) shared_ = std::make_shared<Shared>();
    return changed_.empty() && shared_.use_count() == 1;
  }

  static void Copied(size_t n) { copied_.fetch_add(n, std::memory_order_relaxed); }

  static inline std::atomic<size_t> copied_{0};
  std::shared_ptr<Shared> shared_;
  /// The largest shared map of those adopted, frozen: what Freeze() keeps this as a difference
  /// of when this scope has made a map of its own since (Compact), as it shares most of it.
  std::shared_ptr<Shared> adopted_;
  std::unordered_map<std::string, std::optional<CMakeValue>, VariableNameHash, std::equal_to<>> changed_;
  size_t cost_ = 0;
};

}  // namespace rocm_audit
