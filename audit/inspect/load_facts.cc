#include "audit/inspect/load_facts.h"

namespace rocm_audit {

LoadClosure ClosureOf(const InspectedFile& file, const LoaderConfig& loader, ObjectStore& store,
                      LoaderMemo* memo) {
  return BuildClosure(file.elf, file.walked.path, file.walked.real_path, loader, store, memo);
}

LoadFacts InspectLoad(const InspectedFile& file, const LoaderConfig& loader, ObjectStore& store,
                      DeviceOfferCache& offers, const ArchRequirement& requirement, PluginHosts* plugins,
                      LoaderMemo* memo) {
  LoadFacts out;
  const ElfModel& model = *file.model();
  out.closure = ClosureOf(file, loader, store, memo);
  std::optional<PluginRole> role;
  if (plugins)
    role = ClassifyPlugin(model, loader.fs.DisplayPath(file.walked.path), file.walked.path,
                          plugins->context(), loader);
  if (plugins && !role)
    if (const PluginRole* inherited = plugins->InheritedRole(file.walked.path)) role = *inherited;
  std::shared_ptr<const HostScope> host = role ? plugins->Find(*role, model, file.walked.path) : nullptr;
  out.binding = BindSymbols(model, out.closure, host ? &host->models : nullptr);
  if (role) {
    out.plugin = PluginFacts{
        role->kind,      role->host, role->directory, host ? host->path : "", host ? host->models.size() : 0,
        role->needed_by, {}};
    for (const HostCandidate& c : role->candidates) out.plugin->wanted.push_back(c.name);
  }
  out.device_stack = AnalyzeDeviceStack(out.closure, loader, offers, requirement);
  return out;
}

}  // namespace rocm_audit
