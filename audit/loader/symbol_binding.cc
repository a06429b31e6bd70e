#include "audit/loader/symbol_binding.h"

#include <llvm/BinaryFormat/ELF.h>

#include <algorithm>
#include <optional>
#include <set>

#include "audit/loader/symbol_scope.h"

namespace rocm_audit {
namespace {

// ld.so's _dl_check_map_versions: a non-weak needed version that the loaded library does
// not define is fatal. A library without any version definitions only draws a warning.
std::vector<MissingVersion> FindMissingVersions(const ElfModel& model, const LoadClosure& closure) {
  std::vector<MissingVersion> out;
  for (const NeededVersion& nv : model.needed_versions) {
    int idx = closure.FindByName(nv.library);
    if (idx < 0 || nv.weak) continue;
    const ElfModel& lib = *closure.objects[idx].model;
    if (!lib.has_version_definitions) continue;
    const auto& defs = lib.defined_versions;
    if (std::find(defs.begin(), defs.end(), nv.version) != defs.end()) continue;
    out.push_back({nv.library, nv.version, std::string(closure.objects[idx].path), idx, {}});
  }
  return out;
}

const std::string_view* VersionLibrary(const ElfModel& model, uint16_t index) {
  for (const NeededVersion& nv : model.needed_versions)
    if (nv.index == index) return &nv.library;
  return nullptr;
}

std::string_view FallbackLibrary(const LoadClosure& closure) {
  for (const UnresolvedLibrary& u : closure.unresolved)
    if (std::find(u.needed_by.begin(), u.needed_by.end(), 0) != u.needed_by.end()) return u.name;
  if (closure.unresolved.empty()) return {};
  return closure.unresolved.front().name;
}

}  // namespace

SymbolBinding BindSymbols(const ElfModel& model, const LoadClosure& closure,
                          const std::vector<const ElfModel*>* host_scope) {
  SymbolBinding out;
  std::vector<const ElfModel*> scope;
  for (const LoadedObject& o : closure.objects) scope.push_back(o.model);
  out.scope_size = scope.size();
  out.missing_versions = FindMissingVersions(model, closure);
  // A view of the closure's name: a DT_NEEDED as long as its file is copied only as a key.
  const std::string_view fallback_library = FallbackLibrary(closure);
  std::set<std::string_view> unresolved_names;
  for (const UnresolvedLibrary& u : closure.unresolved) unresolved_names.insert(u.name);

  std::set<std::pair<std::string_view, std::string_view>> seen;
  // Whether ld.so looks a symbol up at all: only when a relocation names it. Read once, and
  // only for an import the scope does not define: nearly every import is defined, and the
  // relocation tables of a large C++ library run to megabytes.
  std::optional<std::vector<bool>> relocated;
  auto never_looked_up = [&](uint32_t i) {
    if (!relocated)
      relocated = model.symbol_table ? model.symbol_table->RelocatedSymbols() : std::vector<bool>();
    return !relocated->empty() && !(*relocated)[i];
  };
  // Only the imports: a pass over every symbol read whole tables of definitions.
  model.ForEachUndefined([&](uint32_t i, const DynamicSymbol& s) {
    std::string_view name = model.NameOf(s);
    if (name.empty()) return;
    if (s.binding != llvm::ELF::STB_GLOBAL && s.binding != llvm::ELF::STB_GNU_UNIQUE) return;
    SymbolReference ref = ReferenceOf(model, s);
    if (FindDefinition(scope, ref) >= 0) return;
    if (never_looked_up(i)) return;
    std::string_view version = ref.version ? *ref.version : std::string_view();
    if (!seen.insert({name, version}).second) return;
    if (host_scope && FindDefinition(*host_scope, ref) >= 0) {
      ++out.bound_by_host;
      return;
    }

    const std::string_view* from = ref.version ? VersionLibrary(model, s.version_index) : nullptr;
    auto mv = std::find_if(
        out.missing_versions.begin(), out.missing_versions.end(),
        [&](const MissingVersion& m) { return from && m.library == *from && m.version == version; });
    if (mv != out.missing_versions.end()) {
      mv->symbols.push_back(name);
      return;
    }
    if (!fallback_library.empty()) {
      bool from_unresolved = from && unresolved_names.count(*from) > 0;
      out.behind_unresolved[std::string(from_unresolved ? *from : fallback_library)].push_back(name);
      return;
    }
    out.undefined.push_back({name, version});
  });
  return out;
}

}  // namespace rocm_audit
