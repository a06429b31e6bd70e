#include "audit/inspect/collect_facts.h"

#include <algorithm>
#include <set>
#include <string_view>
#include <utility>

#include <llvm/BinaryFormat/ELF.h>
#include <llvm/Support/Format.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Support/xxhash.h>

#include "audit/gpu/project_device_facts.h"
#include "audit/model/finding.h"

namespace rocm_audit {
namespace {

ElfFacts ToElfFacts(const ElfModel& m) {
  ElfFacts f;
  f.elf64 = m.elf_class == 2;
  f.machine = std::string(m.machine_name());
  f.soname = m.soname;
  f.has_dynamic = m.has_dynamic;
  // Each name as the report shows it (BoundedView): a DT_NEEDED as long as its file is
  // copied only as far as the report keeps it.
  for (std::string_view name : m.needed) f.needed.push_back(BoundedView(name));
  f.has_runpath = m.has_runpath;
  f.runpath = m.runpath;
  f.rpath = m.rpath;
  return f;
}

// The longest symbol or version name kept whole in `exports`/`imports`. A longer one is kept
// as its first kShortNameHead bytes, "...#" and a 64-bit XXH3 digest: one identity per name
// for diff's set difference, without a copy of it. 20,000 exports named by the suffixes of
// one 1 MiB string are 1.5 MB of file that ld.so loads; copied whole they were 10 GB, and
// even hashed whole 10 GB of reading. So a name past kMaxHashedName (no real mangled name
// comes near: the longest in Debian's ROCm are a few KiB) is digested by its length and its
// last kShortNameHead bytes, after the head that is kept.
constexpr size_t kMaxWholeSymbolName = 4096;
constexpr size_t kShortNameHead = 1024;
constexpr size_t kMaxHashedName = 64 * 1024;

std::string KeptName(std::string_view name) {
  if (name.size() <= kMaxWholeSymbolName) return std::string(name);
  std::string out(name.substr(0, kShortNameHead));
  std::string_view hashed = name;
  uint64_t salt = 0;
  if (name.size() > kMaxHashedName) {
    hashed = name.substr(name.size() - kShortNameHead);
    salt = name.size();
  }
  const uint64_t digest = llvm::xxh3_64bits(llvm::StringRef(hashed.data(), hashed.size())) ^ salt;
  llvm::raw_string_ostream os(out);
  os << "...#" << llvm::format_hex_no_prefix(digest, 16);
  return out;
}

// A dynamic symbol as `nm -D` names it: the version after @@ when it is the default one,
// after @ when hidden; none for the local and global indexes (0, 1) or without a table.
// Each part is kept as KeptName keeps it.
std::string VersionedName(const ElfModel& m, const DynamicSymbol& s) {
  std::string name = KeptName(m.NameOf(s));
  if (!s.has_version || s.version_index <= llvm::ELF::VER_NDX_GLOBAL) return name;
  auto it = m.version_names.find(s.version_index);
  if (it == m.version_names.end()) return name;
  const bool defined_default = s.defined() && !s.version_hidden;
  return name + (defined_default ? "@@" : "@") + KeptName(it->second);
}

// Each object's DT_NEEDED names, matched as ld.so matches them (closure.h): by name or
// soname, else by the file the search found.
std::vector<ClosureNode> ClosureGraph(const LoadClosure& closure, const SymbolBinding& binding,
                                      const LoaderConfig& loader) {
  std::vector<ClosureNode> nodes;
  // A name a requester failed to find is not found for that requester, even when a later
  // one found it under its own search path. Looked up by requester and name: a scan of the
  // requester's edges per failure is quadratic in an object with many missing DT_NEEDED.
  std::set<std::pair<int, std::string_view>> failed;
  for (const UnresolvedLibrary& u : closure.unresolved)
    for (int r : u.needed_by) failed.insert({r, u.name});
  for (size_t r = 0; r < closure.objects.size(); ++r) {
    const LoadedObject& o = closure.objects[r];
    ClosureNode node{loader.fs.DisplayPath(std::string(o.path)), std::string(o.found_by), {}};
    // Names are matched whole, then kept as the report shows them (BoundedView).
    for (std::string_view name : o.model->needed) {
      int object = failed.count({static_cast<int>(r), name}) ? -1 : closure.FindByName(name);
      std::string missing_version;
      // ld.so checks the versions of the audited file's own needs (SymbolBinding).
      if (r == 0)
        for (const MissingVersion& m : binding.missing_versions)
          if (name == m.library) {
            missing_version = m.version;
            break;
          }
      node.needed.push_back({BoundedView(name), object, std::move(missing_version)});
    }
    nodes.push_back(std::move(node));
  }
  return nodes;
}

ClosureFacts ToClosureFacts(const LoadFacts& load, const LoaderConfig& loader, bool with_graph) {
  const LoadClosure& closure = load.closure;
  ClosureFacts f;
  const size_t members = closure.objects.empty() ? 0 : closure.objects.size() - 1;
  const size_t listed = std::min(members, kMaxClosureObjectsListed);
  for (size_t i = 1; i <= listed; ++i)
    f.objects.push_back(loader.fs.DisplayPath(std::string(closure.objects[i].path)));
  f.objects_left_out = members - listed;
  for (const auto& u : closure.unresolved) f.unresolved.push_back(BoundedView(u.name));
  if (with_graph) f.nodes = ClosureGraph(closure, load.binding, loader);
  return f;
}

}  // namespace

void CollectSymbols(const ElfModel& m, ElfFacts* f) {
  f->has_symbols = true;
  for (uint32_t i = 1; i < m.symbol_count(); ++i) {
    const DynamicSymbol s = m.SymbolAt(i);
    if (m.NameOf(s).empty() || s.binding == llvm::ELF::STB_LOCAL) continue;
    if (!s.defined()) {
      f->imports.push_back(VersionedName(m, s));
      continue;
    }
    if (s.visibility == llvm::ELF::STV_HIDDEN || s.visibility == llvm::ELF::STV_INTERNAL) continue;
    f->exports.push_back(VersionedName(m, s));
  }
  for (auto* list : {&f->exports, &f->imports}) {
    std::sort(list->begin(), list->end());
    list->erase(std::unique(list->begin(), list->end()), list->end());
  }
}

FileFacts CollectFacts(const InspectedFile& file, const LoadFacts* load, const LoaderConfig& loader,
                       IsaCompat compat, bool with_symbols, bool with_load_graph) {
  FileFacts out;
  out.path = file.walked.path;
  out.kind = file.kind;
  if (file.model()) {
    out.elf = ToElfFacts(*file.model());
    if (with_symbols && file.model()->has_dynamic && file.model()->machine != llvm::ELF::EM_AMDGPU)
      CollectSymbols(*file.model(), &*out.elf);
  }
  if (file.archive) out.archive_members = file.archive_members;
  if (file.archive) out.non_elf_members = file.non_elf_members;
  if (!file.device.bundles.empty()) out.device = ToDeviceFacts(file.device, file.offers, compat);
  if (file.arch_data) {
    const ArchDataDir& d = *file.arch_data;
    out.arch_data = ArchDataFacts{d.library, d.dir, {d.processors.begin(), d.processors.end()}};
    SortTargetIds(&out.arch_data->processors);
  }
  if (load) {
    if (!load->device_stack.libraries.empty())
      out.device_stack = DeviceStackFacts{load->device_stack.libraries, load->device_stack.CommonTargets()};
    out.closure = ToClosureFacts(*load, loader, with_load_graph);
    if (const auto& p = load->plugin)
      out.plugin = PluginFileFacts{std::string(PluginKindName(p->kind)), p->host, p->host_path,
                                   load->binding.bound_by_host};
  }
  return out;
}

}  // namespace rocm_audit
