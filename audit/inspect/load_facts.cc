#include "audit/inspect/load_facts.h"

namespace rocm_audit {

LoadFacts InspectLoad(const InspectedFile& file, const LoaderConfig& loader, ObjectStore& store,
                      DeviceOfferCache& offers, const ArchRequirement& requirement) {
  LoadFacts out;
  const ElfModel& model = *file.model();
  out.closure = BuildClosure(model, file.walked.path, file.walked.real_path, loader, store);
  out.binding = BindSymbols(model, out.closure);
  out.device_stack = AnalyzeDeviceStack(out.closure, loader, offers, requirement);
  return out;
}

}  // namespace rocm_audit
