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
  size_t same = 0;
  if (base.layer_ && base.depth() < kMaxLayers && base.size() >= all.size() / 4)
    for (const auto& [name, value] : all)
      if (const CMakeValue* b = base.Find(name); b && Same(*b, value)) ++same;
  if (same < all.size() / 2) {
    *this = CMakeVariables(std::move(all));
    return;
  }
  auto layer = std::make_shared<Layer>();
  layer->size = all.size();
  layer->base = base.layer_;
  layer->depth = base.depth() + 1;
  base.ForEach([&](const std::string& name, const CMakeValue&) {
    if (!all.count(name)) layer->removed.push_back(name);
  });
  for (auto it = all.begin(); it != all.end();) {
    const CMakeValue* b = base.Find(it->first);
    if (b && Same(*b, it->second))
      ++it;
    else
      layer->own.insert(all.extract(it++));
  }
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
