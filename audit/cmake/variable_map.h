// The variables of one scope, copied in time proportional to what changed since the copy it
// shares: a function() call starts its scope as a copy of its caller's and an undecided if()
// runs each branch on a copy of the state (CMake's cmStateSnapshot copies them too), and
// Qt6's configs hold well over a thousand variables, so a full copy per call or fork was
// most of an evaluation's time and allocations. The copies share one map of the variables
// as they were when the first copy was made; each keeps what it set or unset since, on top.
#pragma once

#include <atomic>
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

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
  VariableMap(const VariableMap& o) : shared_(o.shared_), changed_(o.changed_), cost_(o.cost_) {
    Copied(changed_.size());
  }
  VariableMap& operator=(const VariableMap& o) {
    if (this == &o) return *this;
    shared_ = o.shared_;
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
    auto it = shared_->find(name);
    return it == shared_->end() ? nullptr : &it->second;
  }
  /// Neither Set() nor Erase() moves another name's value: a value found stays where it is
  /// until its own name is set or unset, or Compact() runs.
  void Set(const std::string& name, CMakeValue value) {
    if (const CMakeValue* old = Find(name)) cost_ -= EntryCost(name, *old);
    cost_ += EntryCost(name, value);
    if (WritesInPlace())
      shared_->insert_or_assign(name, std::move(value));
    else
      changed_.insert_or_assign(name, std::move(value));
  }
  void Erase(const std::string& name) {
    const CMakeValue* old = Find(name);
    if (!old) return;
    cost_ -= EntryCost(name, *old);
    if (WritesInPlace())
      shared_->erase(name);
    else if (shared_->count(name))
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
      if (changed_.size() <= 32 + shared_->size() / 4) return;
      shared_ = std::make_shared<Map>(*shared_);
      Copied(shared_->size());
    }
    for (auto& [name, value] : changed_)
      if (value)
        shared_->insert_or_assign(name, std::move(*value));
      else
        shared_->erase(name);
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
      for (const auto& [name, value] : *shared_)
        if (!changed_.count(name)) f(name, value);
  }
  /// Every variable set, in a sorted map, moved out where no other copy shares it: the map
  /// is empty after it: an evaluation's top scope holds over a thousand variables in Qt6's
  /// modules, and a copy of each at its end is work for nothing.
  std::map<std::string, CMakeValue, std::less<>> TakeAll() {
    std::map<std::string, CMakeValue, std::less<>> out;
    if (shared_ && shared_.use_count() == 1) {
      while (!shared_->empty()) {
        auto node = shared_->extract(shared_->begin());
        if (!changed_.count(node.key())) out.emplace(std::move(node.key()), std::move(node.mapped()));
      }
    } else if (shared_) {
      for (const auto& [name, value] : *shared_)
        if (!changed_.count(name)) out.emplace(name, value);
    }
    while (!changed_.empty()) {
      auto node = changed_.extract(changed_.begin());
      if (node.mapped()) out.emplace(std::move(node.key()), std::move(*node.mapped()));
    }
    shared_.reset();
    cost_ = 0;
    return out;
  }
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
  static size_t EntryCost(const std::string& name, const CMakeValue& v) {
    return name.size() + v.text.size() + v.why.size() + kEntryWork;
  }
  /// Writes go into the shared map while no other copy shares it and nothing changed on top
  /// of it. Each evaluation (and its copies) stays on one thread.
  bool WritesInPlace() {
    if (!shared_) shared_ = std::make_shared<Map>();
    return changed_.empty() && shared_.use_count() == 1;
  }

  static void Copied(size_t n) { copied_.fetch_add(n, std::memory_order_relaxed); }

  static inline std::atomic<size_t> copied_{0};
  std::shared_ptr<Map> shared_;
  std::unordered_map<std::string, std::optional<CMakeValue>, VariableNameHash, std::equal_to<>> changed_;
  size_t cost_ = 0;
};

}  // namespace rocm_audit
