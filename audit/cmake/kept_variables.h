// The variables an evaluation left set, kept read-only for the run: the checks read a
// package's, and every package that finds it gets them again (find_package() runs a config in
// its caller's scope). A package's top scope holds its dependencies' variables too, so each
// package that found Qt6Core held its own copy of Qt6Core's ~1500 variables: most of a run's
// memory and of its time. What is kept is the evaluation's top scope itself, frozen: it shares
// the map of the dependency it adopted (VariableMap::Adopt) and keeps what it changed on top,
// and whoever finds the package adopts the same map in turn.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "audit/cmake/value.h"
#include "audit/cmake/variable_map.h"

namespace rocm_audit {

class CMakeVariables {
 public:
  using Map = std::map<std::string, CMakeValue, std::less<>>;
  CMakeVariables() = default;
  /// `all` as it is.
  explicit CMakeVariables(const Map& all);
  /// The top scope an evaluation ended with, frozen.
  explicit CMakeVariables(VariableMap scope);

  /// Whether a map was kept at all (default-constructed: nothing known).
  explicit operator bool() const { return map_ != nullptr; }
  /// The value of `name`, or null when unset.
  const CMakeValue* Find(std::string_view name) const { return map_ ? map_->Find(name) : nullptr; }
  /// `f(name, value)` for every variable set, in no particular order.
  template <class F>
  void ForEach(F&& f) const {
    if (map_) map_->ForEach(f);
  }
  /// The frozen map, for VariableMap::Adopt(); null when none was kept.
  const VariableMap* map() const { return map_.get(); }

 private:
  std::shared_ptr<const VariableMap> map_;
};

}  // namespace rocm_audit
