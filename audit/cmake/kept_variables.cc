#include "audit/cmake/kept_variables.h"

#include <algorithm>

namespace rocm_audit {
namespace {

// A lookup reads at most this many maps: a chain of Qt modules each finding the one below
// (Qt6Quick3D, Qt6Quick, Qt6Qml, Qt6Core, Qt6) stays within it.
constexpr size_t kMaxLayers = 8;

bool Same(const CMakeValue& a, const CMakeValue& b) {
  return a.known == b.known && a.maybe_unset == b.maybe_unset && a.text == b.text && a.why == b.why;
}

}  // namespace

bool CMakeVariables::Layer::Removes(std::string_view name) const {
  return std::binary_search(removed.begin(), removed.end(), name, std::less<>{});
}

CMakeVariables::CMakeVariables(Map all) {
  auto layer = std::make_shared<Layer>();
  layer->size = all.size();
  layer->own = std::move(all);
  layer_ = std::move(layer);
}

CMakeVariables::CMakeVariables(Map all, const CMakeVariables& base) {
  // Only worth it when the base holds much of `all`; a layer costs a lookup in each map below.
  if (!base.layer_ || base.depth() >= kMaxLayers || base.size() < all.size() / 4) {
    *this = CMakeVariables(std::move(all));
    return;
  }
  // One walk of both in name order, not a lookup through the layers for each name (a map
  // holds thousands): which of `all` the base holds the same, and what it removes.
  std::vector<bool> same(all.size());
  std::vector<std::string> removed;
  size_t n_same = 0, i = 0;
  auto at = all.begin();
  base.ForEach([&](const std::string& name, const CMakeValue& value) {
    for (; at != all.end() && at->first < name; ++at) ++i;
    if (at != all.end() && at->first == name) {
      if (Same(at->second, value)) same[i] = true, ++n_same;
      ++at, ++i;
    } else {
      removed.push_back(name);
    }
  });
  if (n_same < all.size() / 2) {
    *this = CMakeVariables(std::move(all));
    return;
  }
  auto layer = std::make_shared<Layer>();
  layer->size = all.size();
  layer->base = base.layer_;
  layer->depth = base.depth() + 1;
  layer->removed = std::move(removed);
  i = 0;
  for (auto it = all.begin(); it != all.end(); ++i)
    if (same[i])
      ++it;
    else
      layer->own.insert(all.extract(it++));
  layer_ = std::move(layer);
}

const CMakeValue* CMakeVariables::Find(std::string_view name) const {
  for (const Layer* l = layer_.get(); l; l = l->base.get()) {
    if (auto it = l->own.find(name); it != l->own.end()) return &it->second;
    if (l->Removes(name)) return nullptr;
  }
  return nullptr;
}

}  // namespace rocm_audit
