// undefined-symbol: a relocated symbol no object of the load scope defines, as `ldd -r`
// reports it, with where else in the audited paths it is defined (the run's provider
// index) and so what the link is missing.
#include <llvm/Demangle/Demangle.h>

#include "audit/fs/path.h"
#include "checks/registry.h"

namespace rocm_audit {
namespace {

constexpr Rule kRules[] = {
    // Error: ld.so stops the process with "symbol lookup error", at load time with BIND_NOW (-z now) or for
    // data, else at the first call. dpkg-shlibdeps: a warning ("found in none of the libraries"; a plugin's
    // symbols may come from its host); lintian, auditwheel: none.
    {
        .id = "undefined-symbol",
        .severity = Severity::kError,
        .title = "a non-weak undefined dynamic symbol that no object in the load scope defines",
        .fix = "link the library that defines the symbol (add it to the link line or to the static "
               "library's dependency list), or stop referencing it",
        .key_fields = "symbol version",
        .explanation = "The file references a symbol through a dynamic relocation, the reference is not "
                       "weak, and no object in its load scope (the file itself and the libraries ld.so "
                       "would load for it, in load order) defines it with a matching version: what ldd -r "
                       "lists as an undefined symbol. Users see \"symbol lookup error: ...: undefined "
                       "symbol: NAME\" when the program starts or the library is dlopened or imported from "
                       "Python, or, under lazy binding, only when the function is first called. The usual "
                       "cause is a link line that misses a library, often because a static archive was "
                       "linked into a shared library without the archives or libraries it depends on "
                       "(libMIOpen.so calling LLVM's X86 target functions that live in librockCompiler.a). "
                       "The finding names the files of the audited paths that define the symbol, archive "
                       "members included: add that library to the link (for a static library, to the "
                       "dependency list it exports to its consumers), or remove the reference. Symbols "
                       "missing only because a needed library is not found, or because their version is "
                       "missing, are reported on the unresolved-library or missing-version finding instead.",
        .example = "/usr/lib/x86_64-linux-gnu/libamdhip64.so.6.2.60200\n"
                   "  error[undefined-symbol]: undefined symbol hsa_amd_vmem_address_reserve_align, version "
                   "ROCR_1: none of the 14 objects in its load scope defines it\n"
                   "    fix: nothing in the scanned paths defines it: audit the package that should provide "
                   "it together with this one, or drop the reference",
        .cause_fields = "",
        .cause = "undefined symbol {symbol*} in {files}",
        .fields = "symbol:string demangled?:string version:string|null scope_size:integer "
                  "providers:[{file:path member?:string}]",
    },
};

// The C++ name a packager recognises, or "" when the symbol is not a mangled name.
std::string Demangled(std::string_view name) {
  if (!name.starts_with("_Z")) return "";
  std::string out = llvm::demangle(name);
  return out == name ? "" : out;
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

// `providers` and the hint that names the first three of them.
void AddProviders(const std::vector<SymbolProvider>& providers, Finding* f) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  std::string where;
  for (const SymbolProvider& p : providers) {
    nlohmann::ordered_json entry = {{"file", p.file}};
    if (!p.member.empty()) entry["member"] = p.member;
    list.push_back(entry);
    if (list.size() <= 3) {
      if (!where.empty()) where += ", ";
      std::string shown = RelativeToPrefix(p.file, f->file);
      where += p.member.empty() ? shown : shown + "(" + p.member + ")";
    }
  }
  f->fields["providers"] = list;
  if (providers.empty()) {
    f->hint =
        "nothing in the scanned paths defines it: audit the package that should provide it "
        "together with this one, or drop the reference";
    return;
  }
  if (providers.size() > 3) where += " and " + std::to_string(providers.size() - 3) + " more";
  f->hint = "defined in " + where + ", which " + std::string(BaseName(f->file)) +
            " does not link: add it to the link (for a static library, to the consumer's "
            "dependency list)";
}

void Run(const LoadableInput& in, FindingSink& sink) {
  const SymbolBinding& binding = in.load.binding;
  for (const UndefinedSymbol& u : binding.undefined) {
    Finding f = MakeFinding(kRules[0], in.file.walked.path);
    std::string demangled = Demangled(u.name);
    f.message = "undefined symbol " + u.name + (demangled.empty() ? "" : " (" + demangled + ")") +
                (u.version.empty() ? "" : ", version " + u.version) + ": none of the " +
                std::to_string(binding.scope_size) + " objects in its load scope defines it";
    f.fields["symbol"] = u.name;
    if (!demangled.empty()) f.fields["demangled"] = demangled;
    f.fields["version"] =
        u.version.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(u.version);
    f.fields["scope_size"] = binding.scope_size;
    static const std::vector<SymbolProvider> kNone;
    AddProviders(in.run.providers ? in.run.providers->Providers(u.name) : kNone, &f);
    sink.Add(std::move(f));
  }
}

}  // namespace

extern const Check kUndefinedSymbolsCheck{"undefined_symbols", kRules, LoadableCheck{Run},
                                          kNeedsElfAndLoader};

}  // namespace rocm_audit
