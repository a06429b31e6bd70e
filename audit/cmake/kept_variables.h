// The variables an evaluation left set, kept read-only for the run: the checks read a
// package's, and every package that finds it gets them again (find_package() runs a config in
// its caller's scope). A package's top scope holds its dependencies' variables too, so each
// package that found Qt6Core held its own copy of Qt6Core's ~1500 variables: most of a run's
// memory. A map kept here may hold only what differs from the map of a dependency it applied
// (its base), which holds the rest; the layers are shared and never change.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "audit/cmake/value.h"

namespace rocm_audit {

class CMakeVariables {
 public:
  using Map = std::map<std::string, CMakeValue, std::less<>>;
  CMakeVariables() = default;
  /// `all` as it is.
  explicit CMakeVariables(Map all);
  /// `all`, kept as what differs from `base` when that is a small part of it.
  CMakeVariables(Map all, const CMakeVariables& base);

  /// Whether a map was kept at all (default-constructed: nothing known).
  explicit operator bool() const { return layer_ != nullptr; }
  /// The value of `name`, or null when unset.
  const CMakeValue* Find(std::string_view name) const;
  size_t size() const { return layer_ ? layer_->size : 0; }
  bool empty() const { return size() == 0; }
  /// How many maps a lookup may read (1 for a map kept whole).
  size_t depth() const { return layer_ ? layer_->depth : 0; }
  /// `f(name, value)` for every variable set, in byte order of the names.
  template <class F>
  void ForEach(F&& f) const;

 private:
  struct Layer {
    Map own;                           ///< set here, or set differently than in `base`
    std::vector<std::string> removed;  ///< set in `base`, unset here; sorted
    std::shared_ptr<const Layer> base;
    size_t size = 0;   ///< variables set, through every layer
    size_t depth = 1;  ///< layers, this one included
    bool Removes(std::string_view name) const;
  };
  std::shared_ptr<const Layer> layer_;
};

template <class F>
void CMakeVariables::ForEach(F&& f) const {
  if (!layer_) return;
  if (!layer_->base) {
    for (const auto& [name, value] : layer_->own) f(name, value);
    return;
  }
  // A merge of the layers' sorted maps; of equal names the upper layer's wins, and a name
  // an upper layer removes is skipped.
  std::vector<const Layer*> layers;
  std::vector<Map::const_iterator> at;
  for (const Layer* l = layer_.get(); l; l = l->base.get()) {
    layers.push_back(l);
    at.push_back(l->own.begin());
  }
  for (;;) {
    size_t top = layers.size();
    for (size_t i = 0; i < layers.size(); ++i)
      if (at[i] != layers[i]->own.end() && (top == layers.size() || at[i]->first < at[top]->first)) top = i;
    if (top == layers.size()) return;
    const std::string& name = at[top]->first;
    bool removed = false;
    for (size_t i = 0; i < top && !removed; ++i) removed = layers[i]->Removes(name);
    if (!removed) f(name, at[top]->second);
    for (size_t i = top + 1; i < layers.size(); ++i)
      if (at[i] != layers[i]->own.end() && at[i]->first == name) ++at[i];
    ++at[top];
  }
}

}  // namespace rocm_audit
