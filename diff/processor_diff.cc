// processors-lost: the GPU processors a library (matched by SONAME), its Tensile/hipBLASLt
// data, or a directory of device code (matched by its place below the install prefix) served in OLD and no
// longer serves natively in NEW.
#include <algorithm>
#include <map>
#include <set>

#include "audit/gpu/amdgpu_target.h"
#include "diff/compare.h"
#include "diff/installed_layout.h"
#include "diff/shared_libraries.h"
#include "engine/comparison_rules.h"

namespace rocm_audit {
namespace {

using Processors = std::set<std::string>;

// The processors of target IDs ("gfx90a:xnack+" -> gfx90a); generic targets kept by name.
Processors OfTargets(const std::vector<std::string>& targets) {
  Processors out;
  for (const std::string& t : targets) out.insert(t.substr(0, t.find(':')));
  return out;
}

std::vector<std::string> Sorted(const Processors& p) {
  std::vector<std::string> out(p.begin(), p.end());
  SortTargetIds(&out);
  return out;
}

// Whether `processors` serves `p` through the generic target of its family (LLVM's AMDGPU
// processor table: gfx9-generic serves gfx900, gfx902, gfx904, gfx906, gfx909, gfx90c).
bool ServesGenerically(const Processors& processors, const std::string& p) {
  const ProcessorInfo* info = IsGenericProcessor(p) ? nullptr : ProcessorByName(p);
  return info && !info->generic.empty() && processors.count(std::string(info->generic));
}

// What `before` served that `after` does not: lost outright, or now only through the generic
// target of its family. A generic target of `before` stands for the processors it served, so
// that what is lost is named by processor ("gfx900, gfx902", not "gfx9-generic").
void Lost(const Processors& before, const Processors& after, std::vector<std::string>* lost,
          std::vector<std::string>* generic_only) {
  Processors served;
  for (const std::string& p : before)
    if (!IsGenericProcessor(p)) served.insert(p);
  for (const ProcessorInfo& info : AllProcessors())
    if (!info.generic.empty() && before.count(std::string(info.generic)))
      served.insert(std::string(info.name));
  Processors gone, generic;
  for (const std::string& p : served) {
    if (after.count(p)) continue;
    if (!ServesGenerically(after, p))
      gone.insert(p);
    else if (before.count(p))  // native before, generic now
      generic.insert(p);
  }
  // A generic target neither side's processors name (one this build of LLVM does not know).
  for (const std::string& p : before)
    if (IsGenericProcessor(p) && !after.count(p) && ProcessorByName(p) == nullptr) gone.insert(p);
  *lost = Sorted(gone);
  *generic_only = Sorted(generic);
}

void AddLost(const std::string& file, const std::string& scope, const std::string& what,
             const Processors& before, const Processors& after, std::vector<std::string> hit,
             FindingSink& out) {
  std::vector<std::string> lost, generic_only;
  Lost(before, after, &lost, &generic_only);
  if (lost.empty() && generic_only.empty()) return;
  Finding f = MakeFinding(kProcessorsLostRule, file);
  auto list = [](const std::vector<std::string>& v) {
    std::string s;
    for (const std::string& p : v) s += (s.empty() ? "" : ", ") + p;
    return s;
  };
  f.message = what;
  if (!lost.empty()) f.message += " no longer serves " + list(lost);
  if (!generic_only.empty())
    f.message += std::string(lost.empty() ? "" : ";") + " serves " + list(generic_only) +
                 " only through a generic target";
  f.message += " (it has " + (after.empty() ? std::string("none") : list(Sorted(after))) + ")";
  f.fields = {{"scope", scope},
              {"lost", lost},
              {"generic_only", generic_only},
              {"old_processors", Sorted(before)},
              {"new_processors", Sorted(after)},
              {"hit", std::move(hit)}};
  out.Add(std::move(f));
}

// The files of NEW that load `lib`, directly (DT_NEEDED) or through their closure: a
// program loses the processor with any library it maps; then the base's files linking it.
std::vector<std::string> Loading(const Side& side, BaseConsumers& base, const FileFacts& lib) {
  const std::string& soname = lib.elf->soname;
  std::vector<std::string> out;
  for (const FileFacts& f : side.files) {
    if (&f == &lib) continue;
    const bool loads = (f.elf && Links(*f.elf, soname)) ||
                       (f.closure && std::find(f.closure->objects.begin(), f.closure->objects.end(),
                                               lib.path) != f.closure->objects.end());
    if (loads) out.push_back(f.path);
  }
  for (const FileFacts& f : base.Linking(soname)) out.push_back(f.path);
  return out;
}

// Device files that are not shared libraries (code objects, bundles, Tensile .co/.hsaco),
// by directory: their names change between versions, their directory rarely does. Keyed by
// the directory's place below its install prefix (installed_layout.h), so that the sides
// meet whatever prefix each has; each with the directory as the side installs it.
struct DeviceDirectory {
  std::string dir;
  Processors processors;
};

std::map<std::string, DeviceDirectory> ByDirectory(const Side& side) {
  std::map<std::string, DeviceDirectory> out;
  for (const FileFacts& f : side.files) {
    if (!f.device || (f.elf && !f.elf->soname.empty() && f.elf->machine != "amdgpu")) continue;
    const size_t slash = f.path.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : f.path.substr(0, slash);
    DeviceDirectory& d = out[PlaceBelowPrefix(dir + "/")];
    d.dir = dir;
    const Processors p = OfTargets(f.device->targets);
    d.processors.insert(p.begin(), p.end());
  }
  return out;
}

}  // namespace

void CompareProcessors(const Side& old_side, const Side& new_side, BaseConsumers& base, FindingSink& out) {
  const SharedLibraries now(new_side);
  const SharedLibraries was(old_side);
  // A library's Tensile/hipBLASLt data directory is compared as its data, not again as a
  // directory of device code.
  std::set<std::string> data_dirs;
  for (const FileFacts* old_lib : was.All()) {
    const FileFacts* new_lib = now.First(old_lib->elf->soname);
    if (!new_lib) new_lib = now.SameStem(old_lib->elf->soname);
    if (!new_lib) continue;
    const std::string& soname = new_lib->elf->soname;
    if (old_lib->device) {
      const Processors after = new_lib->device ? OfTargets(new_lib->device->targets) : Processors{};
      AddLost(new_lib->path, "library", soname, OfTargets(old_lib->device->targets), after,
              Loading(new_side, base, *new_lib), out);
    }
    if (old_lib->arch_data && !old_lib->arch_data->processors.empty()) {
      const Processors before(old_lib->arch_data->processors.begin(), old_lib->arch_data->processors.end());
      Processors after;
      if (new_lib->arch_data)
        after.insert(new_lib->arch_data->processors.begin(), new_lib->arch_data->processors.end());
      const std::string dir =
          new_lib->arch_data && !new_lib->arch_data->dir.empty() ? new_lib->arch_data->dir : new_lib->path;
      data_dirs.insert(dir);
      AddLost(dir, "data", old_lib->arch_data->library + " data of " + soname, before, after,
              Loading(new_side, base, *new_lib), out);
    }
  }
  const std::map<std::string, DeviceDirectory> after = ByDirectory(new_side);
  for (const auto& [place, before] : ByDirectory(old_side))
    if (auto it = after.find(place); it != after.end() && !data_dirs.count(it->second.dir))
      AddLost(it->second.dir, "directory", it->second.dir + "/", before.processors, it->second.processors, {},
              out);
}

}  // namespace rocm_audit
