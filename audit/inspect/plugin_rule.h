// Which loadable files are plugins: shared objects a program dlopen()s by path rather than
// links, whose undefined symbols its host program defines (a Python extension module calls
// the interpreter's C API, which neither the module nor any library it needs defines). The
// rule, in order (docs/design.md §F9):
//   1. --plugin-host MODULE-GLOB=PROGRAM: a shared object the glob matches, host PROGRAM;
//   2. a Python extension module: a shared object named with a CPython ABI tag
//      (NAME.cpython-311-x86_64-linux-gnu.so: host python3.11 or libpython3.11.so.1.0), a
//      PyPy one (NAME.pypy310-pp73-x86_64-linux-gnu.so: pypy3.10, libpypy3.10-c.so or
//      libpypy3-c.so), the stable ABI tag (NAME.abi3.so), or NAME.so that defines PyInit_NAME;
//      the last two take the ABI of the wheel whose RECORD lists them (plugin_wheel.h: cp311
//      is python3.11, pp310 pypy3.10, cp38-abi3 and no wheel python3 or libpython3.so);
//   3. a Perl XS module: NAME.so in a directory named auto/ (at any depth above it) that
//      defines a boot_* function; host perl, or libperl.so.5.N where the path says 5.N;
//   4. a plugin in a plugin directory: a shared object with no SONAME, or with its own file
//      name ending in .so as SONAME (libtool's -module -avoid-version), whose directory lies below the
//      last library directory of its path (lib, lib32, lib64, libx32, lib/<multiarch>) and is
//      not one ld.so searches (ld.so.conf, --library-path), and that no audited object names
//      in DT_NEEDED. Open MPI's lib/openmpi3/mca_*.so is one. Its host is not known.
// Never a plugin: an executable (PT_INTERP), a file with a versioned SONAME (a library
// consumers link, such as libMIOpen.so.1), or a file other objects of the tree need.
// A library of a host's API (HostApiLibraryRole: Python's C API, an MPI profiling library,
// a thread debugging library) is no plugin, but may be judged against its host all the same
// (plugin_host.h, InheritHosts).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "audit/elf/elf_model.h"
#include "audit/inspect/plugin_wheel.h"
#include "audit/loader/search_path.h"

namespace rocm_audit {

/// --plugin-host MODULE-GLOB=PROGRAM.
struct PluginHostOption {
  std::string module_glob;  ///< matched as PluginHostMatches says
  std::string program;      ///< a path in the installed system, or a program or library name
};

/// Parses "MODULE-GLOB=PROGRAM" (split at the first '='); false when either side is empty.
[[nodiscard]] bool ParsePluginHostOption(const std::string& text, PluginHostOption* out);

/// A glob starting with '/' matches the module's path in the installed system (or its host
/// path); any other glob matches its trailing path components ("openmpi3/mca_*.so"), a glob
/// without '/' its file name. '*' and '?' cross '/' (fnmatch without FNM_PATHNAME).
bool PluginHostMatches(const std::string& glob, const std::string& system_path, const std::string& host_path);

// kPluginLibrary: a library with a SONAME that only plugins of one host need (transitively),
// which lives in that host's process (plugin_host.h, InheritHosts).
enum class PluginKind {
  kGiven,
  kPythonExtension,
  kPerlXs,
  kPluginDirectory,
  kPluginLibrary,
  kPythonApiLibrary,
  kMpiProfilingLibrary,
  kProcServiceLibrary
};
std::string_view PluginKindName(PluginKind kind);  ///< "plugin-host", "python-extension", ...

/// One name a host may be found by, in the order the rule prefers them.
struct HostCandidate {
  std::string name;      ///< "python3.11", "libpython3.11.so.1.0", "/usr/bin/mpirun"
  bool library = false;  ///< found as ld.so finds a DT_NEEDED name, not as a program
};

struct PluginRole {
  PluginKind kind = PluginKind::kPluginDirectory;
  std::string host;  ///< the host the report names ("python3.11"); "" when the rule names none
  std::vector<HostCandidate> candidates;  ///< empty when the host is not known
  std::string directory;                  ///< kPluginDirectory: the plugin directory (system path)
  std::string needed_by;  ///< kPluginLibrary: a plugin that needs it (host path), for the message
};

/// What the rule reads beyond the file: the DT_NEEDED names of every audited object (a
/// file one of them names is linked, not loaded by path) and the --plugin-host options.
struct PluginContext {
  std::unordered_set<std::string> needed_names;
  std::vector<PluginHostOption> given;
  std::shared_ptr<const WheelIndex> wheels;  ///< the wheels of untagged and abi3 modules; may be null
};

/// A library of a host's API: a shared object (not an executable), judged against that host,
/// of the first of these kinds it is; nullopt for any other file.
///
/// A library of Python's C API: a shared object (not an executable) with a non-weak undefined
/// symbol of CPython's API (Py<Upper>..., Py_..., _Py<Upper>..., _Py_...) and no DT_NEEDED
/// on a libpython or libpypy, as the C API's users are linked (libboost_python.so.1.74.0,
/// libvtkWrappingPythonCore): the interpreter of the process defines those symbols. Its role
/// names python3, then libpython3.so.
///
/// An MPI profiling library: a shared object (not an executable) that defines a function
/// MPI_X and has a non-weak undefined PMPI_X, and has no DT_NEEDED on an MPI library
/// (libmpi*, libmpich*). The MPI standard's profiling interface (MPI-4.0 §15.2) has every
/// MPI library define each routine under both names, so that a tool's MPI_X wrappers, linked
/// ahead of the MPI library or preloaded (LD_PRELOAD), reach the real routine as PMPI_X:
/// Open MPI's libompitrace.so.40 is one. The MPI library of the process defines PMPI_X. Its
/// role names libmpi.so.40 (Open MPI), then libmpi.so.12 (the MPICH ABI: MPICH, Intel MPI,
/// MVAPICH).
///
/// A thread debugging library: a shared object (not an executable) with a non-weak undefined
/// ps_pglobal_lookup, the first callback of the proc_service interface (proc_service.h: "the
/// definitions in this file must correspond to those in the debugger"), as glibc's
/// libthread_db.so.1 is built. The debugger that loads it defines the ps_* callbacks: its
/// role names gdb, then gdbserver.
std::optional<PluginRole> HostApiLibraryRole(const ElfModel& model);

/// Whether a library of `api` (HostApiLibraryRole) lives in the
/// process of a dependent decided to have `role`: any Python host for the C API, the same
/// host otherwise.
bool ServesApiHost(const PluginRole& role, const PluginRole& api);

/// `system_path` is the file as the installed system names it (LoaderConfig::fs's
/// DisplayPath), `host_path` where the walk found it. nullopt for anything but a plugin.
std::optional<PluginRole> ClassifyPlugin(const ElfModel& model, const std::string& system_path,
                                         const std::string& host_path, const PluginContext& context,
                                         const LoaderConfig& loader);

}  // namespace rocm_audit
