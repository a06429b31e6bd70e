#include "audit/inspect/device_stack.h"

#include <llvm/Support/MemoryBuffer.h>

#include <map>

namespace rocm_audit {

std::vector<std::string> DeviceStack::CommonTargets() const {
  std::vector<std::string> out;
  for (const TargetSpread& t : targets)
    if (t.lacking.empty()) out.push_back(t.target.str());
  return out;
}

DeviceStack AnalyzeDeviceStack(const LoadClosure& closure, const LoaderConfig& loader,
                               DeviceOfferCache& cache, const ArchRequirement& requirement) {
  DeviceStack out;
  std::vector<const std::vector<ArchOffer>*> offers;  // parallel to out.libraries
  // The objects of a closure are distinct files (BuildClosure maps a file once).
  for (const LoadedObject& o : closure.objects) {
    if (!o.model || !o.model->buffer) continue;
    const llvm::MemoryBuffer& b = *o.model->buffer;
    const std::vector<ArchOffer>& found =
        cache.Get(o.real_path, std::string_view(b.getBufferStart(), b.getBufferSize()));
    if (found.empty()) continue;
    out.libraries.push_back(loader.fs.DisplayPath(std::string(o.path)));
    out.library_paths.emplace_back(o.real_path);
    offers.push_back(&found);
  }
  if (out.libraries.empty()) return out;
  std::vector<TargetId> targets = requirement.targets;
  if (targets.empty()) {
    // Every specific target any library offers, and every processor a generic target it
    // offers serves: a gfx1031 runs gfx10-3-generic code, so the others must serve it too.
    std::map<std::string, TargetId> offered;
    for (const auto* list : offers)
      for (const ArchOffer& o : *list) {
        if (!ProcessorByName(o.target.processor)) continue;
        if (!IsGenericProcessor(o.target.processor)) {
          offered.emplace(o.target.str(), o.target);
          continue;
        }
        for (const ProcessorInfo& p : AllProcessors())
          if (p.generic == o.target.processor) {
            TargetId member;
            member.processor = std::string(p.name);
            offered.emplace(member.str(), member);
          }
      }
    for (const auto& [text, id] : offered) targets.push_back(id);
    std::sort(targets.begin(), targets.end(),
              [](const TargetId& a, const TargetId& b) { return TargetIdLess(a.str(), b.str()); });
  }
  for (const TargetId& t : targets) {
    TargetSpread spread{t, {}, {}};
    for (size_t i = 0; i < offers.size(); ++i) {
      Coverage c = CheckRequirement(t, *offers[i], requirement.isa_compat);
      (c.by == ServedBy::kNone ? spread.lacking : spread.serving).push_back(i);
    }
    out.targets.push_back(std::move(spread));
  }
  return out;
}

}  // namespace rocm_audit
