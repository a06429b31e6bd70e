#include "checks/stack_arch_gap.h"

#include <map>
#include <set>

#include <llvm/Support/MemoryBuffer.h>

#include "audit/rooted_fs.h"

namespace rocm_audit {

StackCoverage CheckStackArchGap(const FileContext& ctx, FindingSink& sink) {
  StackCoverage out;
  std::vector<std::pair<std::string, const std::vector<ArchOffer>*>> libs;
  std::set<std::string> seen;
  if (!ctx.run.device_offers) return out;
  for (const LoadedObject& o : ctx.closure.objects) {
    if (!o.model || !o.model->buffer || !seen.insert(o.real_path).second) continue;
    const llvm::MemoryBuffer& b = *o.model->buffer;
    const std::vector<ArchOffer>& offers =
        ctx.run.device_offers->Get(o.real_path, std::string_view(b.getBufferStart(), b.getBufferSize()));
    if (offers.empty()) continue;
    libs.push_back({ctx.loader.fs.DisplayPath(o.path), &offers});
    out.libraries.push_back(libs.back().first);
  }
  if (libs.empty()) return out;
  std::vector<TargetId> targets = ctx.options.required_archs;
  if (targets.empty()) {
    std::map<std::string, TargetId> offered;  // every specific target any library offers
    for (const auto& [name, offers] : libs)
      for (const ArchOffer& o : *offers)
        if (ProcessorByName(o.target.processor) && !IsGenericProcessor(o.target.processor))
          offered.emplace(o.target.str(), o.target);
    for (const auto& [text, id] : offered) targets.push_back(id);
  }
  for (const TargetId& t : targets) {
    std::vector<std::string> serving, lacking;
    for (const auto& [name, offers] : libs) {
      Coverage c = CheckRequirement(t, *offers, ctx.options.isa_compat);
      (c.by == ServedBy::kNone ? lacking : serving).push_back(name);
    }
    if (lacking.empty()) {
      out.common.push_back(t.str());
      continue;
    }
    if (serving.empty() || libs.size() < 2) continue;  // nobody serves it: missing-arch's job
    Finding f = MakeFinding(ctx, "stack-arch-gap");
    std::string names;
    for (const auto& l : lacking) names += (names.empty() ? "" : ", ") + std::string(BaseName(l));
    f.message = t.str() + " is served by " + std::to_string(serving.size()) + " of the " +
                std::to_string(libs.size()) + " device-code libraries this file loads, but not by " +
                names + "; on a " + t.processor + " the GPU calls into those fail at run time";
    f.hint = "rebuild " + names + " with " + t.str() + " in GPU_TARGETS";
    f.fields["arch"] = t.str();
    f.fields["lacking"] = lacking;
    f.fields["serving"] = serving;
    sink.Add(std::move(f));
  }
  return out;
}

}  // namespace rocm_audit
