// undefined-symbol: a relocated symbol no object of the load scope defines, as `ldd -r`
// reports it, with where else in the audited paths it is defined (the run's provider
// index) and so what the link is missing.
#include <llvm/Demangle/Demangle.h>

#include <optional>

#include "audit/elf/object_store.h"
#include "audit/fs/path.h"
#include "checks/registry.h"

namespace rocm_audit {
namespace {

constexpr Rule kRules[] = {
    // Error: ld.so stops the process with "symbol lookup error", at load time with BIND_NOW (-z now) or for
    // data, else at the first call. dpkg-shlibdeps: a warning ("found in none of the libraries"), and only
    // for executables and libraries with a SONAME (Dpkg::Shlibs::Objdump is_public_library): a plugin's
    // symbols may come from its host; lintian, auditwheel: none (auditwheel leaves libpython out of every
    // policy: the interpreter provides it). A plugin is judged against its host here; one whose host is not
    // in the audited world is a note per symbol, since what it lacks cannot be known.
    {
        .id = "undefined-symbol",
        .severity = Severity::kError,
        .title = "a non-weak undefined dynamic symbol that no object in the load scope defines",
        .fix = "link the library that defines the symbol (add it to the link line or to the static "
               "library's dependency list), or stop referencing it",
        .key_fields = "symbol version",
        .explanation =
            "The file references a symbol through a dynamic relocation, the reference is not "
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
            "missing, are reported on the unresolved-library or missing-version finding instead. "
            "A plugin (a module a program dlopens rather than links) binds against its host too: "
            "a Python extension module (NAME.cpython-311-x86_64-linux-gnu.so, NAME.abi3.so, or "
            "NAME.so defining PyInit_NAME) against python3.11 or libpython3.11.so.1.0 (python3 or "
            "libpython3.so for the stable ABI; a PyPy module NAME.pypy310-pp73-x86_64-linux-gnu.so against "
            "pypy3.10 or libpypy3.10-c.so; an untagged or abi3 module against the interpreter its wheel's "
            "tag names, as auditwheel reads it: cp311-cp311 python3.11, pp310-pypy310_pp73 pypy3.10), a "
            "library that only such plugins of one host need against that host, a library that calls the "
            "Python C API (Py*, _Py*) without linking libpython and that no program or other library "
            "needs against python3 or libpython3.so (libboost_python), a Perl XS module (NAME.so "
            "below an auto/ directory "
            "defining boot_*) against perl or libperl.so.5.N, and the modules a --plugin-host "
            "MODULE-GLOB=PROGRAM matches against PROGRAM, each with its closure, found in the "
            "audited paths or the installed system (--root). A symbol the host defines is bound; "
            "one neither the plugin's closure nor its host defines is this error. A shared object "
            "with no soname (or its own NAME.so file name as soname, as libtool writes for modules) in a "
            "subdirectory of a library directory that ld.so does not search, which no audited "
            "object links (Open MPI's lib/openmpi3/mca_*.so), is a plugin whose host is not known, "
            "as is a library only such plugins need (libmca_common_*.so); "
            "a plugin whose host is not in the audited world has its unbound symbols reported as "
            "notes that name the host it expects.",
        .example = "/usr/lib/x86_64-linux-gnu/libamdhip64.so.6.2.60200\n"
                   "  error[undefined-symbol]: undefined symbol hsa_amd_vmem_address_reserve_align, version "
                   "ROCR_1: none of the 14 objects in its load scope defines it\n"
                   "    fix: nothing in the scanned paths defines it: audit the package that should provide "
                   "it together with this one, or drop the reference",
        .cause_fields = "",
        .cause = "undefined symbol {symbol*} in {files}",
        .fields = "symbol:string demangled?:string version:string|null scope_size:integer "
                  "providers:[{file:path member?:string}] plugin?:string host?:string|null "
                  "host_path?:path|null replaced?:{package:string version:string file:path}",
    },
};

// llvm::demangle recurses once per level of a name's nesting (ItaniumDemangle.h has no depth
// bound): a crafted undefined symbol "_Z1fPPP...Pi" of 100 KB overflows the stack and ends
// the run. A name this long is shown mangled; at this length the deepest nesting stays far
// inside a worker thread's stack.
constexpr size_t kMaxDemangledName = 4096;

// The C++ name a packager recognises, or "" when the symbol is not a mangled name.
// The length cap also keeps 20,000 suffixes of one 1 MiB name from costing 20,000 demanglings
// of up to 1 MiB.
std::string Demangled(std::string_view name) {
  if (!name.starts_with("_Z") || name.size() > kMaxDemangledName) return "";
  std::string out = llvm::demangle(name);
  return out == name ? "" : out;
}

// "lib/librockCompiler.a" for a provider under the audited file's prefix (the directory
// above its lib/ or bin/ directory); the full path otherwise.
PathText RelativeToPrefix(const std::string& path, const std::string& file) {
  std::string prefix = DirName(DirName(file));
  if (prefix != "/" && path.size() > prefix.size() + 1 && path.compare(0, prefix.size(), prefix) == 0 &&
      path[prefix.size()] == '/')
    return path.substr(prefix.size() + 1);
  return HostPath(path);
}

// `providers` and the hint that names the first three of them.
void AddProviders(const std::vector<SymbolProvider>& providers, Finding* f) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  PathText where;
  for (const SymbolProvider& p : providers) {
    nlohmann::ordered_json entry = {{"file", p.file}};
    if (!p.member.empty()) entry["member"] = p.member;
    list.push_back(entry);
    if (list.size() <= 3) {
      if (!where.text().empty()) where += ", ";
      const PathText shown = RelativeToPrefix(p.file, f->file);
      where += p.member.empty() ? shown : shown + "(" + p.member + ")";
    }
  }
  f->fields["providers"] = list;
  if (providers.empty()) {
    f->SetHint(
        "nothing in the scanned paths defines it: audit the package that should provide it "
        "together with this one, or drop the reference");
    return;
  }
  if (providers.size() > 3) where += " and " + std::to_string(providers.size() - 3) + " more";
  f->SetHint("defined in " + where + ", which " + std::string(BaseName(f->file)) +
             " does not link: add it to the link (for a static library, to the consumer's "
             "dependency list)");
}

// The shared objects that the installed copies of the packages being installed own in the
// base, hidden in the audit: read, for one file's findings, only when a symbol nothing
// defines may be one a new version dropped.
class ReplacedCopies {
 public:
  explicit ReplacedCopies(const std::vector<ReplacedCopy>& copies) : copies_(copies) {}

  struct Definition {
    const ReplacedCopy* copy = nullptr;
    size_t library = 0;
  };
  std::optional<Definition> Defining(const std::string& symbol) {
    for (const ReplacedCopy& c : copies_)
      for (size_t i = 0; i < c.libraries.size(); ++i) {
        std::shared_ptr<const StoredObject> stored = store_.Get(c.libraries[i], c.installed[i]);
        bool defines = false;
        if (stored->model) stored->model->ForEachDefinition(symbol, [&](uint32_t) { defines = true; });
        if (defines) return Definition{&c, i};
      }
    return std::nullopt;
  }

 private:
  const std::vector<ReplacedCopy>& copies_;
  ObjectStore store_;
};

// A symbol nothing defines that the installed copy of a package being installed defines: the
// new version dropped it, and the stale copy, hidden, no longer stands in.
void DescribeDroppedSymbol(const ReplacedCopies::Definition& d, const std::string& name, Finding* f) {
  const ReplacedCopy& c = *d.copy;
  const std::string installed = c.package + (c.version.empty() ? "" : " " + c.version);
  const std::string& library = c.installed[d.library];
  f->message += "; the installed " + installed + ", which installing " + c.package +
                " replaces, defines it in " + library;
  f->SetHint("the new " + c.package + " no longer defines " + name + ", which the installed " + installed +
             " does (" + std::string(BaseName(library)) +
             "): export it again (or change the SONAME), or rebuild " + std::string(BaseName(f->file)) +
             " against the new version");
  f->fields["replaced"] = {{"package", c.package}, {"version", c.version}, {"file", library}};
}

// What a file of `plugin`'s kind is, in the words of a finding's message.
PathText WhatPluginIs(const PluginFacts& plugin, const LoaderConfig& loader) {
  switch (plugin.kind) {
    case PluginKind::kPythonExtension: return "a Python extension module";
    case PluginKind::kPerlXs: return "a Perl XS module";
    case PluginKind::kPluginLibrary:
      return "a library that only plugins load (" + InstalledPathText(loader.fs, plugin.needed_by) + ")";
    case PluginKind::kPythonApiLibrary: return "a library of the Python C API";
    case PluginKind::kMpiProfilingLibrary:
      return "an MPI profiling library (MPI_* wrappers that call the MPI library's PMPI_*)";
    case PluginKind::kProcServiceLibrary:
      return "a thread debugging library (its ps_* proc_service callbacks are the debugger's)";
    case PluginKind::kGiven:
    case PluginKind::kPluginDirectory: break;
  }
  return "a plugin";
}

std::string Objects(size_t n) { return std::to_string(n) + (n == 1 ? " object" : " objects"); }

// What the finding says of a plugin's host, and its severity. A plugin judged against its
// host keeps the error; one whose host is not in the audited world (or not known) cannot be
// judged: its unbound symbols are notes, named after the host it expects.
void DescribePlugin(const PluginFacts& plugin, const LoaderConfig& loader, Finding* f) {
  f->fields["plugin"] = std::string(PluginKindName(plugin.kind));
  f->fields["host"] =
      plugin.host.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(plugin.host);
  f->fields["host_path"] =
      plugin.host_path.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(plugin.host_path);
  const PathText what = WhatPluginIs(plugin, loader);
  if (!plugin.host_path.empty()) {
    f->AddToMessage(", nor does its host " + InstalledPathText(loader.fs, plugin.host_path) + " (" +
                    Objects(plugin.host_scope_size) + " with its closure)");
    return;
  }
  f->severity = Severity::kNote;
  if (plugin.host.empty()) {
    f->AddToMessage("; it is " + what + (plugin.directory.empty() ? "" : " in " + plugin.directory) +
                    ", loaded by a program the audit cannot name, so it is not judged");
    f->SetHint(
        "name the program that loads it with --plugin-host GLOB=PROGRAM to judge it against that "
        "program");
    return;
  }
  std::string wanted;
  for (size_t i = 0; i < plugin.wanted.size(); ++i)
    wanted += (i == 0 ? "" : i + 1 == plugin.wanted.size() ? " nor " : ", ") + plugin.wanted[i];
  f->AddToMessage("; it is " + what + " for " + plugin.host + ", and " +
                  (plugin.wanted.size() > 1 ? "neither " + wanted + " is" : wanted + " is not") +
                  " in the audited world");
  f->SetHint("audit it over a root that has " + plugin.host +
             " (--root), or name its host with --plugin-host");
}

void Run(const LoadableInput& in, FindingSink& sink) {
  const SymbolBinding& binding = in.load.binding;
  ReplacedCopies replaced(in.options.replaced);
  for (const UndefinedSymbol& u : binding.undefined) {
    Finding f = MakeFinding(kRules[0], in.file.walked.path);
    // The names as the report keeps them (BoundedView), copied once: the binding's names are
    // views into the file, and 20,000 of them may be suffixes of one 1 MiB string.
    const std::string name = BoundedView(u.name), version = BoundedView(u.version);
    std::string demangled = Demangled(u.name);
    f.SetMessage("undefined symbol " + name + (demangled.empty() ? "" : " (" + demangled + ")") +
                 (version.empty() ? "" : ", version " + version) + ": " +
                 (binding.scope_size == 1
                      ? std::string("its load scope is itself alone, which does not define it")
                      : "none of the " + std::to_string(binding.scope_size) +
                            " objects in its load scope defines it"));
    f.fields["symbol"] = name;
    if (!demangled.empty()) f.fields["demangled"] = demangled;
    f.fields["version"] = version.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(version);
    f.fields["scope_size"] = binding.scope_size;
    static const std::vector<SymbolProvider> kNone;
    const std::vector<SymbolProvider>& providers =
        in.run.providers ? in.run.providers->Providers(u.name) : kNone;
    AddProviders(providers, &f);
    if (providers.empty() && !in.options.replaced.empty())
      if (auto dropped = replaced.Defining(std::string(u.name))) DescribeDroppedSymbol(*dropped, name, &f);
    if (in.load.plugin) DescribePlugin(*in.load.plugin, in.loader, &f);
    sink.Add(std::move(f));
  }
}

}  // namespace

extern const Check kUndefinedSymbolsCheck{"undefined_symbols", kRules, LoadableCheck{Run},
                                          kNeedsElfAndLoader};

}  // namespace rocm_audit
