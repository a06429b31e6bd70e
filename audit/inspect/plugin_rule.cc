#include "audit/inspect/plugin_rule.h"

#include <fnmatch.h>

#include <algorithm>
#include <cctype>

#include <llvm/BinaryFormat/ELF.h>

#include "audit/fs/path.h"

namespace rocm_audit {
namespace {

std::vector<std::string_view> Components(std::string_view path) {
  std::vector<std::string_view> out;
  while (!path.empty()) {
    size_t slash = path.find('/');
    std::string_view c = path.substr(0, slash);
    if (!c.empty()) out.push_back(c);
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash + 1);
  }
  return out;
}

bool Defines(const ElfModel& model, const std::string& name) {
  bool any = false;
  model.ForEachDefinition(name, [&](uint32_t) { any = true; });
  return any;
}

// The interpreter of CPython `version` ("3.11", "3.13t"; "3" for any): its executable,
// then its shared library (PEP 3149 names both; libpython3.so is the stable ABI's).
PluginRole Python(const std::string& version) {
  PluginRole role;
  role.kind = PluginKind::kPythonExtension;
  role.host = "python" + version;
  role.candidates = {{"python" + version, false},
                     {version == "3" ? "libpython3.so" : "libpython" + version + ".so.1.0", true}};
  return role;
}

// PyPy `version` ("3.10"): its executable, then libpypy3.10-c.so, which PyPy 7.3.4 and later
// name by version, then libpypy3-c.so of the earlier releases.
PluginRole PyPy(const std::string& version) {
  PluginRole role;
  role.kind = PluginKind::kPythonExtension;
  role.host = "pypy" + version;
  role.candidates = {
      {"pypy" + version, false}, {"libpypy" + version + "-c.so", true}, {"libpypy3-c.so", true}};
  return role;
}

// The version of a PEP 3149 tag's digits and flags ("311" -> "3.11", "313t" -> "3.13t");
// "" when it is not one.
std::string TagVersion(std::string_view abi) {
  abi = abi.substr(0, abi.find('-'));
  size_t digits = 0;
  while (digits < abi.size() && std::isdigit(static_cast<unsigned char>(abi[digits]))) ++digits;
  bool flags_ok = std::all_of(abi.begin() + digits, abi.end(), [](char c) { return std::islower(c); });
  if (digits < 2 || !flags_ok) return "";
  return std::string(abi.substr(0, 1)) + "." + std::string(abi.substr(1, digits - 1)) +
         std::string(abi.substr(digits));
}

// The host of a module whose name carries no version: its wheel's ABI, else any python3.
PluginRole OfWheel(const PluginContext& context, const std::string& host_path) {
  std::optional<WheelAbi> abi = context.wheels ? context.wheels->AbiOf(host_path) : std::nullopt;
  if (!abi || abi->kind == WheelAbi::Kind::kStableAbi) return Python("3");
  return abi->kind == WheelAbi::Kind::kPyPy ? PyPy(abi->version) : Python(abi->version);
}

// NAME.cpython-<major><minor><flags>-<platform>.so, NAME.pypy<major><minor>-pp73-<platform>.so,
// NAME.abi3.so, or NAME.so defining PyInit_NAME (the module's init function, which the import
// system looks up by the name).
std::optional<PluginRole> PythonExtension(const ElfModel& model, std::string_view name,
                                          const std::string& host_path, const PluginContext& context) {
  if (!name.ends_with(".so")) return std::nullopt;
  std::string_view stem = name.substr(0, name.size() - 3);
  if (stem.ends_with(".abi3")) return OfWheel(context, host_path);
  if (size_t tag = stem.find(".cpython-"); tag != std::string_view::npos)
    if (std::string v = TagVersion(stem.substr(tag + 9)); !v.empty()) return Python(v);
  if (size_t tag = stem.find(".pypy"); tag != std::string_view::npos)
    if (std::string v = TagVersion(stem.substr(tag + 5)); !v.empty()) return PyPy(v);
  std::string module(name.substr(0, name.find('.')));
  if (!module.empty() && Defines(model, "PyInit_" + module)) return OfWheel(context, host_path);
  return std::nullopt;
}

bool DefinesBootFunction(const ElfModel& model) {
  for (uint32_t i = 1; i < model.symbol_count(); ++i) {
    const DynamicSymbol s = model.SymbolAt(i);
    if (s.defined() && s.type == llvm::ELF::STT_FUNC && model.NameOf(s).starts_with("boot_")) return true;
  }
  return false;
}

// "5.36" from a component "5.36" or "5.36.0" (Debian's perl5/5.36/, perl/5.36.0/).
std::string PerlVersion(const std::vector<std::string_view>& dirs) {
  for (std::string_view c : dirs) {
    if (!c.starts_with("5.") || c.size() < 3) continue;
    std::string_view minor = c.substr(2, c.find('.', 2) - 2);
    if (!minor.empty() && std::all_of(minor.begin(), minor.end(),
                                      [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); }))
      return "5." + std::string(minor);
  }
  return "";
}

// NAME.so below a directory named auto/ that defines boot_<Module> (what XSLoader and
// DynaLoader call after dlopen).
std::optional<PluginRole> PerlXs(const ElfModel& model, const std::vector<std::string_view>& dirs,
                                 std::string_view name) {
  if (!name.ends_with(".so") || std::find(dirs.begin(), dirs.end(), "auto") == dirs.end())
    return std::nullopt;
  if (!DefinesBootFunction(model)) return std::nullopt;
  PluginRole role;
  role.kind = PluginKind::kPerlXs;
  role.host = "perl";
  role.candidates = {{"perl", false}};
  if (std::string v = PerlVersion(dirs); !v.empty()) role.candidates.push_back({"libperl.so." + v, true});
  return role;
}

// A name of CPython's C API: Py or _Py, then an upper-case letter or '_' (PyExc_ValueError,
// Py_InitializeEx, _Py_NoneStruct, _PyObject_GetDictPtr).
bool PythonApiName(std::string_view name) {
  if (name.starts_with('_')) name.remove_prefix(1);
  return name.size() > 2 && name.starts_with("Py") &&
         (std::isupper(static_cast<unsigned char>(name[2])) || name[2] == '_');
}

}  // namespace

namespace {

// An MPI library by its DT_NEEDED name: Open MPI's libmpi.so.40 (and libmpi_cxx, which needs
// it), MPICH's libmpich.so.12 and the MPICH ABI's libmpi.so.12.
bool MpiLibraryName(std::string_view needed) {
  std::string_view base = BaseName(needed);
  return base.starts_with("libmpi.") || base.starts_with("libmpi_") || base.starts_with("libmpich");
}

}  // namespace

namespace {

// The roles HostApiLibraryRole gives (plugin_rule.h says which file has which).
PluginRole PythonApiRole() {
  PluginRole role = Python("3");
  role.kind = PluginKind::kPythonApiLibrary;
  return role;
}

PluginRole MpiProfilingRole() {
  PluginRole role;
  role.kind = PluginKind::kMpiProfilingLibrary;
  role.host = "libmpi";
  role.candidates = {{"libmpi.so.40", true}, {"libmpi.so.12", true}};
  return role;
}

PluginRole ProcServiceRole() {
  PluginRole role;
  role.kind = PluginKind::kProcServiceLibrary;
  role.host = "gdb";
  role.candidates = {{"gdb", false}, {"gdbserver", false}};
  return role;
}

}  // namespace

// The three roles in one pass over the non-weak undefined symbols: asking each in turn read
// every undefined name of every audited library three times (9% of the loader checks' CPU).
// An MPI_X is looked up in the object's hash table, as ld.so would look it up: the names of
// its other definitions are never read (of a large C++ library, most of its string table).
std::optional<PluginRole> HostApiLibraryRole(const ElfModel& model) {
  if (model.type != llvm::ELF::ET_DYN || model.has_interpreter) return std::nullopt;
  const bool python_possible = std::none_of(model.needed.begin(), model.needed.end(), [](std::string_view n) {
    std::string_view base = BaseName(n);
    return base.starts_with("libpython") || base.starts_with("libpypy");
  });
  const bool mpi_possible = std::none_of(model.needed.begin(), model.needed.end(), MpiLibraryName);
  bool python = false, mpi_wraps = false, proc_service = false;
  model.ForEachUndefined([&](uint32_t, const DynamicSymbol& s) {
    if (python || s.binding == llvm::ELF::STB_LOCAL || s.binding == llvm::ELF::STB_WEAK) return;
    std::string_view name = model.NameOf(s);
    python = python_possible && PythonApiName(name);
    proc_service = proc_service || name == "ps_pglobal_lookup";
    if (mpi_possible && !mpi_wraps && name.starts_with("PMPI_"))
      model.ForEachDefinition("MPI_" + std::string(name.substr(5)), [&](uint32_t index) {
        mpi_wraps = mpi_wraps || model.SymbolAt(index).type == llvm::ELF::STT_FUNC;
      });
  });
  if (python) return PythonApiRole();
  if (mpi_wraps) return MpiProfilingRole();
  if (proc_service) return ProcServiceRole();
  return std::nullopt;
}

bool ServesApiHost(const PluginRole& role, const PluginRole& api) {
  if (api.kind == PluginKind::kPythonApiLibrary)
    return role.host.starts_with("python") || role.host.starts_with("pypy");
  return role.host == api.host;
}

namespace {

bool LibraryDirectory(std::string_view component, std::string_view parent) {
  if (component == "lib" || component == "lib32" || component == "lib64" || component == "libx32")
    return true;
  return parent.starts_with("lib") && component.find("-linux-") != std::string_view::npos;  // lib/<multiarch>
}

// A directory below the last library directory of the path, which ld.so does not search.
bool InPluginDirectory(const std::vector<std::string_view>& dirs, const std::string& system_dir,
                       const std::string& host_dir, const LoaderConfig& loader) {
  size_t last_lib = dirs.size();
  for (size_t i = 0; i < dirs.size(); ++i)
    if (LibraryDirectory(dirs[i], i ? dirs[i - 1] : std::string_view())) last_lib = i;
  if (last_lib >= dirs.size() || last_lib + 1 == dirs.size()) return false;
  const auto& conf = loader.conf_dirs;
  const auto& lp = loader.library_path;
  return std::find(conf.begin(), conf.end(), system_dir) == conf.end() &&
         std::find(lp.begin(), lp.end(), host_dir) == lp.end();
}

}  // namespace

bool ParsePluginHostOption(const std::string& text, PluginHostOption* out) {
  size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) return false;
  *out = {text.substr(0, eq), text.substr(eq + 1)};
  return true;
}

bool PluginHostMatches(const std::string& glob, const std::string& system_path,
                       const std::string& host_path) {
  if (glob.starts_with('/'))
    return fnmatch(glob.c_str(), system_path.c_str(), 0) == 0 ||
           fnmatch(glob.c_str(), host_path.c_str(), 0) == 0;
  if (glob.find('/') == std::string::npos)
    return fnmatch(glob.c_str(), std::string(BaseName(system_path)).c_str(), 0) == 0;
  std::string anchored = "*/" + glob;
  return fnmatch(anchored.c_str(), system_path.c_str(), 0) == 0 ||
         fnmatch(anchored.c_str(), host_path.c_str(), 0) == 0 ||
         fnmatch(glob.c_str(), system_path.c_str(), 0) == 0;
}

std::string_view PluginKindName(PluginKind kind) {
  switch (kind) {
    case PluginKind::kGiven: return "plugin-host";
    case PluginKind::kPythonExtension: return "python-extension";
    case PluginKind::kPerlXs: return "perl-xs";
    case PluginKind::kPluginDirectory: return "plugin-directory";
    case PluginKind::kPluginLibrary: return "plugin-library";
    case PluginKind::kPythonApiLibrary: return "python-api-library";
    case PluginKind::kMpiProfilingLibrary: return "mpi-profiling-library";
    case PluginKind::kProcServiceLibrary: return "proc-service-library";
  }
  return "";
}

std::optional<PluginRole> ClassifyPlugin(const ElfModel& model, const std::string& system_path,
                                         const std::string& host_path, const PluginContext& context,
                                         const LoaderConfig& loader) {
  if (model.type != llvm::ELF::ET_DYN || model.has_interpreter) return std::nullopt;
  for (const PluginHostOption& given : context.given) {
    if (!PluginHostMatches(given.module_glob, system_path, host_path)) continue;
    bool library =
        given.program.find('/') == std::string::npos && given.program.find(".so") != std::string::npos;
    return PluginRole{PluginKind::kGiven, given.program, {{given.program, library}}, "", ""};
  }
  std::string_view name = BaseName(system_path);
  const std::string system_dir = DirName(system_path);
  std::vector<std::string_view> dirs = Components(system_dir);
  if (auto python = PythonExtension(model, name, host_path, context)) return python;
  if (auto perl = PerlXs(model, dirs, name)) return perl;
  // libtool's modules name themselves (mca_btl_tcp.so); a versioned soname is a library's.
  bool own_soname = model.soname.empty() || (model.soname == name && name.ends_with(".so"));
  if (!own_soname || context.needed_names.count(std::string(name)) ||
      (!model.soname.empty() && context.needed_names.count(model.soname)))
    return std::nullopt;
  if (!InPluginDirectory(dirs, system_dir, DirName(host_path), loader)) return std::nullopt;
  PluginRole role;
  role.kind = PluginKind::kPluginDirectory;
  role.directory = system_dir;
  return role;
}

}  // namespace rocm_audit
