// A plugin's host in the audited world, and the global scope it gives the plugin. A program
// that dlopen()s a module binds the module's symbols over the global scope first (the
// program and the closure ld.so loaded for it), then over the module's own closure
// (glibc's dl-open.c: the module's lookup scope is the main map's list followed by its
// own). So a symbol the host or its closure defines is bound, and one neither defines is
// still undefined.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "audit/elf/object_store.h"
#include "audit/inspect/inspected_file.h"
#include "audit/inspect/plugin_rule.h"
#include "audit/loader/closure.h"
#include "audit/model/boxed.h"

namespace rocm_audit {

/// What a loadable file's facts say of it as a plugin.
struct PluginFacts {
  PluginKind kind = PluginKind::kPluginDirectory;
  std::string
      host;  ///< the host the rule names ("python3.11", "perl", a --plugin-host PROGRAM); "" when none
  std::string directory;       ///< kPluginDirectory: the plugin directory (system path)
  std::string host_path;       ///< host path of the host found in the audited world; "" when none is there
  size_t host_scope_size = 0;  ///< objects of the host's global scope (the host and its closure)
  std::string needed_by;       ///< kPluginLibrary: a plugin that needs it (host path)
  std::vector<std::string> wanted;  ///< the names the host was looked for by, in order
};

/// The host program (or library) with its closure: the plugin's global scope.
struct HostScope {
  std::string path;                             ///< host path as found
  std::shared_ptr<const StoredObject> program;  ///< keeps closure.objects[0]'s model alive
  LoadClosure closure;
  std::vector<const ElfModel*> models;  ///< closure.objects' models, load order
};

/// Finds each plugin's host once per run: the audited files by name first (a staged tree, a
/// conda env's bin/python3.11), then the installed system the loader sees (--root layers, or
/// the host): a program in /usr/bin, /usr/local/bin or /bin (a PROGRAM with '/' at that path),
/// a library where ld.so would find it if the module needed it. A candidate of another ELF
/// class or machine than the module cannot load it and is passed over. Thread-safe.
class PluginHosts {
 public:
  /// `memo`: the run's, for `loader` (closure.h), so that a host's closure lists no search
  /// directory the run's closures listed already; null keeps one per host.
  PluginHosts(PluginContext context, const std::vector<Boxed<InspectedFile>>& files,
              const LoaderConfig& loader, ObjectStore& store, LoaderMemo* memo = nullptr);

  const PluginContext& context() const { return context_; }
  const LoaderConfig& loader() const { return loader_; }

  /// The role of the audited shared object at host path `path` when only plugins of one host
  /// need it (InheritHosts); nullptr otherwise.
  const PluginRole* InheritedRole(const std::string& path) const;

  /// The host of `module` (found at `module_path`) as `role` names it; nullptr when none of
  /// its candidates is in the audited world.
  std::shared_ptr<const HostScope> Find(const PluginRole& role, const ElfModel& module,
                                        const std::string& module_path);

 private:
  std::shared_ptr<const HostScope> Load(const std::string& path, const std::string& real_path,
                                        const ElfModel& module);
  bool FindProgram(const std::string& name, std::string* path, std::string* real_path) const;

  PluginContext context_;
  const LoaderConfig& loader_;
  ObjectStore& store_;
  LoaderMemo* memo_;
  std::unordered_map<std::string, std::vector<std::string>> programs_;  ///< audited executables by file name
  std::unordered_map<std::string, std::vector<std::string>>
      libraries_;                                          ///< audited shared objects by name and soname
  std::unordered_map<std::string, PluginRole> inherited_;  ///< by host path
  std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<const HostScope>> by_real_path_;  ///< null: not usable
};

/// The libraries among `files` that live in a plugin host's process only: a shared object
/// (not a plugin, not an executable) that at least one audited object needs and whose every
/// audited dependent is a plugin of one host (named, or none known) or such a library of the
/// same host: kPluginLibrary with the host's candidates. Else a library of the Python C API
/// or another library of a host's API (HostApiLibraryRole) that no audited object needs, or that only objects
/// of such a host need (ServesApiHost): that role. A dependent is an audited object whose DT_NEEDED names the
/// library's SONAME or file name. Keyed by host path.
std::unordered_map<std::string, PluginRole> InheritHosts(const std::vector<Boxed<InspectedFile>>& files,
                                                         const PluginContext& context,
                                                         const LoaderConfig& loader);

/// The DT_NEEDED names of every audited ELF file, with the --plugin-host options.
PluginContext MakePluginContext(const std::vector<Boxed<InspectedFile>>& files,
                                std::vector<PluginHostOption> given);

}  // namespace rocm_audit
