// stack-arch-gap: a GPU target that some device-code libraries of one load closure serve
// and others do not; on that GPU the calls into the lagging ones fail at run time. A
// target nobody in the closure serves is missing-arch's job.
#include "audit/fs/path.h"
#include "checks/registry.h"

namespace rocm_audit {
namespace {

constexpr Rule kRules[] = {
    {"stack-arch-gap", Severity::kWarning,
     "a GPU target served by some device-code libraries of a load closure but not by all",
     "rebuild the lagging libraries for the target, or drop it from the others' GPU_TARGETS"},
};

void Run(const LoadableInput& in, FindingSink& sink) {
  const DeviceStack& stack = in.load.device_stack;
  if (stack.libraries.size() < 2) return;
  for (const TargetSpread& t : stack.targets) {
    if (t.lacking.empty() || t.serving.empty()) continue;
    Finding f = MakeFinding(kRules[0], in.file.walked.path);
    std::string names;
    for (const auto& l : t.lacking) names += (names.empty() ? "" : ", ") + std::string(BaseName(l));
    f.message = t.target.str() + " is served by " + std::to_string(t.serving.size()) + " of the " +
                std::to_string(stack.libraries.size()) +
                " device-code libraries this file loads, but not by " + names + "; on a " +
                t.target.processor + " the GPU calls into those fail at run time";
    f.hint = "rebuild " + names + " with " + t.target.str() + " in GPU_TARGETS";
    f.fields["arch"] = t.target.str();
    f.fields["lacking"] = t.lacking;
    f.fields["serving"] = t.serving;
    sink.Add(std::move(f));
  }
}

}  // namespace

extern const Check kStackArchGapCheck{"stack_arch_gap", kRules, LoadableCheck{Run}};

}  // namespace rocm_audit
