#include "checks/undefined_symbols.h"

#include <llvm/BinaryFormat/ELF.h>
#include <llvm/Demangle/Demangle.h>

#include <algorithm>
#include <set>

#include "audit/rooted_fs.h"
#include "audit/symbol_scope.h"

namespace rocm_audit {
namespace {

struct MissingVersion {
  std::string library;
  std::string version;
  std::string resolved_path;
  std::vector<std::string> symbols;
};

// ld.so's _dl_check_map_versions: a non-weak needed version that the loaded library does
// not define is fatal. A library without any version definitions only draws a warning.
std::vector<MissingVersion> FindMissingVersions(const FileContext& ctx) {
  std::vector<MissingVersion> out;
  for (const NeededVersion& nv : ctx.model.needed_versions) {
    int idx = ctx.closure.FindByName(nv.library);
    if (idx < 0 || nv.weak) continue;
    const ElfModel& lib = *ctx.closure.objects[idx].model;
    if (!lib.has_version_definitions) continue;
    const auto& defs = lib.defined_versions;
    if (std::find(defs.begin(), defs.end(), nv.version) != defs.end()) continue;
    out.push_back({nv.library, nv.version, ctx.closure.objects[idx].path, {}});
  }
  return out;
}

// The C++ name a packager recognises, or "" when the symbol is not a mangled name.
std::string Demangled(std::string_view name) {
  if (!name.starts_with("_Z")) return "";
  std::string out = llvm::demangle(name);
  return out == name ? "" : out;
}

const std::string* VersionLibrary(const ElfModel& model, uint16_t index) {
  for (const NeededVersion& nv : model.needed_versions)
    if (nv.index == index) return &nv.library;
  return nullptr;
}

// "lib/librockCompiler.a" for a provider under the audited file's prefix (the directory
// above its lib/ or bin/ directory); the full path otherwise.
std::string RelativeToPrefix(const std::string& path, const std::string& file) {
  std::string prefix = DirName(DirName(file));
  if (prefix != "/" && path.size() > prefix.size() + 1 && path.compare(0, prefix.size(), prefix) == 0 &&
      path[prefix.size()] == '/')
    return path.substr(prefix.size() + 1);
  return path;
}

std::string DescribeVersions(const ElfModel& lib) {
  std::string newest;
  for (const auto& v : lib.defined_versions) newest = v;  // verdef order is oldest first
  return newest.empty() ? "" : " (its newest is " + newest + ")";
}

}  // namespace

void CheckUndefinedSymbols(const FileContext& ctx, FindingSink& sink, UnboundBehindLibrary* unbound) {
  std::vector<const ElfModel*> scope;
  for (const LoadedObject& o : ctx.closure.objects) scope.push_back(o.model);
  std::vector<MissingVersion> missing = FindMissingVersions(ctx);

  // Where symbols hidden by an unresolved library go: the one a versioned reference names,
  // else the first unresolved direct dependency, else the first unresolved one.
  std::string fallback_library;
  for (const UnresolvedLibrary& u : ctx.closure.unresolved)
    if (std::find(u.needed_by.begin(), u.needed_by.end(), 0) != u.needed_by.end()) {
      fallback_library = u.name;
      break;
    }
  if (fallback_library.empty() && !ctx.closure.unresolved.empty())
    fallback_library = ctx.closure.unresolved.front().name;

  std::set<std::pair<std::string_view, std::string>> seen;
  std::vector<bool> relocated = ctx.model.symbol_table ? ctx.model.symbol_table->RelocatedSymbols()
                                                       : std::vector<bool>();
  for (uint32_t i = 1; i < ctx.model.symbol_count(); ++i) {
    const DynamicSymbol s = ctx.model.SymbolAt(i);
    if (s.defined()) continue;
    if (!relocated.empty() && !relocated[i]) continue;  // never looked up by ld.so
    std::string_view name = ctx.model.NameOf(s);
    if (name.empty()) continue;
    if (s.binding != llvm::ELF::STB_GLOBAL && s.binding != llvm::ELF::STB_GNU_UNIQUE) continue;
    SymbolReference ref = ReferenceOf(ctx.model, s);
    if (FindDefinition(scope, ref) >= 0) continue;
    std::string version = ref.version ? *ref.version : "";
    if (!seen.insert({name, version}).second) continue;

    const std::string* from = ref.version ? VersionLibrary(ctx.model, s.version_index) : nullptr;
    auto mv = std::find_if(missing.begin(), missing.end(), [&](const MissingVersion& m) {
      return from && m.library == *from && m.version == version;
    });
    if (mv != missing.end()) {
      mv->symbols.emplace_back(name);
      continue;
    }
    if (!fallback_library.empty()) {
      bool from_unresolved =
          from && std::any_of(ctx.closure.unresolved.begin(), ctx.closure.unresolved.end(),
                              [&](const UnresolvedLibrary& u) { return u.name == *from; });
      (*unbound)[from_unresolved ? *from : fallback_library].emplace_back(name);
      continue;
    }
    Finding f = MakeFinding(ctx, "undefined-symbol");
    std::string demangled = Demangled(name);
    f.message = "undefined symbol " + std::string(name) +
                (demangled.empty() ? "" : " (" + demangled + ")") +
                (version.empty() ? "" : ", version " + version) + ": none of the " +
                std::to_string(scope.size()) + " objects in its load scope defines it";
    f.fields["symbol"] = std::string(name);
    if (!demangled.empty()) f.fields["demangled"] = demangled;
    f.fields["version"] = version.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(version);
    f.fields["scope_size"] = scope.size();
    sink.Add(std::move(f));
  }

  for (MissingVersion& m : missing) {
    int idx = ctx.closure.FindByName(m.library);
    Finding f = MakeFinding(ctx, "missing-version");
    f.message = "version " + m.version + " not found in " + m.library + " (" + m.resolved_path +
                ")" + DescribeVersions(*ctx.closure.objects[idx].model) + "; " +
                std::to_string(m.symbols.size()) + (m.symbols.size() == 1 ? " symbol needs" : " symbols need") + " it";
    f.hint = "the file was built against a newer " + m.library +
             " than the one it loads: build against the oldest supported one, or depend on the newer one";
    f.fields["library"] = m.library;
    f.fields["version"] = m.version;
    f.fields["resolved_path"] = m.resolved_path;
    f.fields["symbols"] = m.symbols;
    sink.Add(std::move(f));
  }
}

void AddProviderHints(std::vector<Finding>& findings, const SymbolIndex& index) {
  for (Finding& f : findings) {
    if (f.check != "undefined-symbol") continue;
    const auto& providers = index.Providers(f.fields["symbol"].get<std::string>());
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    std::string where;
    for (const SymbolProvider& p : providers) {
      nlohmann::ordered_json entry = {{"file", p.file}};
      if (!p.member.empty()) entry["member"] = p.member;
      list.push_back(entry);
      if (list.size() <= 3) {
        if (!where.empty()) where += ", ";
        std::string shown = RelativeToPrefix(p.file, f.file);
        where += p.member.empty() ? shown : shown + "(" + p.member + ")";
      }
    }
    f.fields["providers"] = list;
    std::string self(BaseName(f.file));
    if (providers.empty()) {
      f.hint = "nothing in the scanned paths defines it: audit the package that should provide it "
               "together with this one, or drop the reference";
    } else {
      if (providers.size() > 3) where += " and " + std::to_string(providers.size() - 3) + " more";
      f.hint = "defined in " + where + ", which " + self +
               " does not link: add it to the link (for a static library, to the consumer's "
               "dependency list)";
    }
  }
}

}  // namespace rocm_audit
