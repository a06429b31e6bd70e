#include "audit/inspect/plugin_host.h"

#include <climits>

#include "audit/fs/path.h"

namespace rocm_audit {

PluginContext MakePluginContext(const std::vector<Boxed<InspectedFile>>& files,
                                std::vector<PluginHostOption> given) {
  PluginContext context;
  for (const Boxed<InspectedFile>& f : files)
    if (f && f->model())
      for (std::string_view n : f->model()->needed)
        // A name longer than NAME_MAX is no file's name (and may be as long as its file).
        if (std::string_view base = BaseName(n); base.size() <= NAME_MAX) context.needed_names.emplace(base);
  context.given = std::move(given);
  return context;
}

PluginHosts::PluginHosts(PluginContext context, const std::vector<Boxed<InspectedFile>>& files,
                         const LoaderConfig& loader, ObjectStore& store)
    : context_(std::move(context)), loader_(loader), store_(store) {
  for (const Boxed<InspectedFile>& f : files) {
    if (!f || !f->loadable()) continue;
    const ElfModel& m = *f->model();
    std::string name(BaseName(f->walked.path));
    if (m.has_interpreter) {
      programs_[name].push_back(f->walked.path);
      continue;
    }
    libraries_[name].push_back(f->walked.path);
    if (!m.soname.empty() && m.soname != name) libraries_[m.soname].push_back(f->walked.path);
  }
}

// A program: audited executables by name, then /usr/bin, /usr/local/bin and /bin of the
// installed system; a name with '/' is that path of the installed system.
bool PluginHosts::FindProgram(const std::string& name, std::string* path, std::string* real_path) const {
  std::vector<std::string> tried;
  if (name.find('/') != std::string::npos) {
    tried.push_back(loader_.fs.HostPath(name));
  } else {
    if (auto it = programs_.find(name); it != programs_.end()) tried = it->second;
    for (const char* dir : {"/usr/bin/", "/usr/local/bin/", "/bin/"})
      tried.push_back(loader_.fs.HostPath(dir + name));
  }
  for (const std::string& p : tried) {
    if (auto real = loader_.fs.Resolve(p)) {
      *path = p;
      *real_path = *real;
      return true;
    }
  }
  return false;
}

std::shared_ptr<const HostScope> PluginHosts::Load(const std::string& path, const std::string& real_path,
                                                   const ElfModel& module) {
  std::lock_guard lock(mutex_);
  auto [it, fresh] = by_real_path_.try_emplace(real_path);
  if (fresh) {
    auto stored = store_.Get(real_path, path);
    if (stored->model) {
      auto scope = std::make_shared<HostScope>();
      scope->path = path;
      scope->program = stored;
      scope->closure = BuildClosure(*stored->model, path, real_path, loader_, store_);
      for (const LoadedObject& o : scope->closure.objects) scope->models.push_back(o.model);
      it->second = std::move(scope);
    }
  }
  // A host of another class or machine cannot load the module: not its host.
  const std::shared_ptr<const HostScope>& host = it->second;
  if (!host) return nullptr;
  const ElfModel& h = *host->models.front();
  return h.elf_class == module.elf_class && h.machine == module.machine ? host : nullptr;
}

std::shared_ptr<const HostScope> PluginHosts::Find(const PluginRole& role, const ElfModel& module,
                                                   const std::string& module_path) {
  for (const HostCandidate& c : role.candidates) {
    std::string path, real;
    if (!c.library) {
      if (!FindProgram(c.name, &path, &real)) continue;
    } else if (auto it = libraries_.find(c.name); it != libraries_.end()) {
      path = it->second.front();
      if (auto r = loader_.fs.Resolve(path)) real = *r;
    } else {
      Resolution res = FindLibrary(c.name, {RpathLink{&module, DirName(module_path)}}, loader_);
      if (!res.found) continue;
      path = res.path;
      real = res.real_path;
    }
    if (real.empty()) continue;
    if (auto host = Load(path, real, module)) return host;
  }
  return nullptr;
}

}  // namespace rocm_audit
