#include "audit/inspect/collect_facts.h"

#include "audit/gpu/project_device_facts.h"

namespace rocm_audit {
namespace {

ElfFacts ToElfFacts(const ElfModel& m) {
  ElfFacts f;
  f.elf64 = m.elf_class == 2;
  f.machine = std::string(m.machine_name());
  f.soname = m.soname;
  f.has_dynamic = m.has_dynamic;
  f.needed = m.needed;
  f.has_runpath = m.has_runpath;
  f.runpath = m.runpath;
  f.rpath = m.rpath;
  return f;
}

ClosureFacts ToClosureFacts(const LoadClosure& closure, const LoaderConfig& loader) {
  ClosureFacts f;
  for (size_t i = 1; i < closure.objects.size(); ++i)
    f.objects.push_back(loader.fs.DisplayPath(closure.objects[i].path));
  for (const auto& u : closure.unresolved) f.unresolved.push_back(u.name);
  return f;
}

}  // namespace

FileFacts CollectFacts(const InspectedFile& file, const LoadFacts* load, const LoaderConfig& loader) {
  FileFacts out;
  out.path = file.walked.path;
  out.kind = file.kind;
  if (file.model()) out.elf = ToElfFacts(*file.model());
  if (file.archive) out.archive_members = file.archive_members;
  if (!file.device.bundles.empty()) out.device = ToDeviceFacts(file.device, file.offers);
  if (file.arch_data) {
    const ArchDataDir& d = *file.arch_data;
    out.arch_data = ArchDataFacts{d.library, d.dir, {d.processors.begin(), d.processors.end()}};
    SortTargetIds(&out.arch_data->processors);
  }
  if (load) {
    if (!load->device_stack.libraries.empty())
      out.device_stack = DeviceStackFacts{load->device_stack.libraries, load->device_stack.CommonTargets()};
    out.closure = ToClosureFacts(load->closure, loader);
  }
  return out;
}

}  // namespace rocm_audit
