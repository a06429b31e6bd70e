#include "audit/inspect/plugin_host.h"

#include <climits>
#include <unordered_set>

#include "audit/fs/path.h"

namespace rocm_audit {
namespace {

// One loadable audited object as InheritHosts sees it.
struct Node {
  std::string path;
  std::optional<PluginRole> role;  ///< its own plugin role, or the inherited one once decided
  bool program = false;            ///< an executable: a host of its own, never a plugin's library
  /// HostApiLibraryRole, for a file with no role of its own
  std::optional<PluginRole> api{};
  std::vector<size_t> dependents;  ///< audited objects that name it in DT_NEEDED
};

bool SameHost(const PluginRole& a, const PluginRole& b) {
  if (a.host != b.host || a.candidates.size() != b.candidates.size()) return false;
  for (size_t i = 0; i < a.candidates.size(); ++i)
    if (a.candidates[i].name != b.candidates[i].name) return false;
  return true;
}

// The role `node` inherits from its dependents, once every one of them is decided with the
// same host (a named one, or none known: Open MPI's libmca_common_*.so, which only its
// lib/openmpi3/mca_*.so plugins need); nullopt while one is undecided, a program, or of
// another host.
std::optional<PluginRole> Inherit(const Node& node, const std::vector<Node>& nodes) {
  if (node.program || node.dependents.empty()) return std::nullopt;
  const PluginRole* first = nullptr;
  for (size_t d : node.dependents) {
    const Node& dep = nodes[d];
    if (dep.program || !dep.role) return std::nullopt;
    if (first && !SameHost(*first, *dep.role)) return std::nullopt;
    if (!first) first = &*dep.role;
  }
  PluginRole role = *first;
  role.kind = PluginKind::kPluginLibrary;
  role.directory.clear();
  if (role.needed_by.empty()) role.needed_by = nodes[node.dependents.front()].path;
  return role;
}

// Whether a library of a host's API (Python's C API, MPI's profiling interface, a debugger's
// proc_service) lives only
// in that host's processes: every audited object that needs it is decided to be of such a
// host (a module, or a library of one), or none needs it. A program or another library
// that links it loads it outside any such host: ldd -r's verdict stands.
bool OnlyInApiHost(const Node& node, const std::vector<Node>& nodes) {
  for (size_t d : node.dependents) {
    const Node& dep = nodes[d];
    if (dep.program || !dep.role || !ServesApiHost(*dep.role, *node.api)) return false;
  }
  return true;
}

std::vector<Node> DependencyNodes(const std::vector<Boxed<InspectedFile>>& files,
                                  const PluginContext& context, const LoaderConfig& loader) {
  std::vector<Node> nodes;
  std::unordered_map<std::string, std::vector<size_t>> by_name;
  std::vector<const ElfModel*> models;
  for (const Boxed<InspectedFile>& f : files) {
    if (!f || !f->loadable()) continue;
    const ElfModel& m = *f->model();
    Node node;
    node.path = f->walked.path;
    node.program = m.has_interpreter;
    node.role = ClassifyPlugin(m, loader.fs.DisplayPath(node.path), node.path, context, loader);
    if (!node.role) node.api = HostApiLibraryRole(m);
    std::string name(BaseName(node.path));
    by_name[name].push_back(nodes.size());
    if (!m.soname.empty() && m.soname != name) by_name[m.soname].push_back(nodes.size());
    nodes.push_back(std::move(node));
    models.push_back(&m);
  }
  for (size_t i = 0; i < nodes.size(); ++i) {
    std::unordered_set<size_t> seen;
    for (std::string_view n : models[i]->needed)
      if (auto it = by_name.find(std::string(BaseName(n))); it != by_name.end())
        for (size_t j : it->second)
          if (j != i && seen.insert(j).second) nodes[j].dependents.push_back(i);
  }
  return nodes;
}

}  // namespace

std::unordered_map<std::string, PluginRole> InheritHosts(const std::vector<Boxed<InspectedFile>>& files,
                                                         const PluginContext& context,
                                                         const LoaderConfig& loader) {
  std::vector<Node> nodes = DependencyNodes(files, context, loader);
  std::vector<bool> plugin(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) plugin[i] = nodes[i].role.has_value();
  std::unordered_map<std::string, PluginRole> out;
  // A library decided in one pass may decide the libraries it needs in the next: repeat
  // until none changes. Libraries only in a cycle among themselves stay undecided.
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (plugin[i] || nodes[i].role) continue;
      std::optional<PluginRole> role = Inherit(nodes[i], nodes);
      // A library of a host's API that only other such libraries need is one itself; one an
      // extension module needs keeps the module's more precise host (python3.11).
      const std::optional<PluginRole>& api = nodes[i].api;
      if (api && (role ? SameHost(*role, *api) : OnlyInApiHost(nodes[i], nodes))) role = api;
      if (role) {
        out[nodes[i].path] = *role;
        nodes[i].role = std::move(role);
        changed = true;
      }
    }
  }
  return out;
}

PluginContext MakePluginContext(const std::vector<Boxed<InspectedFile>>& files,
                                std::vector<PluginHostOption> given) {
  PluginContext context;
  for (const Boxed<InspectedFile>& f : files)
    if (f && f->model())
      for (std::string_view n : f->model()->needed)
        // A name longer than NAME_MAX is no file's name (and may be as long as its file).
        if (std::string_view base = BaseName(n); base.size() <= NAME_MAX) context.needed_names.emplace(base);
  context.given = std::move(given);
  context.wheels = std::make_shared<WheelIndex>();
  return context;
}

PluginHosts::PluginHosts(PluginContext context, const std::vector<Boxed<InspectedFile>>& files,
                         const LoaderConfig& loader, ObjectStore& store, LoaderMemo* memo)
    : context_(std::move(context)), loader_(loader), store_(store), memo_(memo) {
  inherited_ = InheritHosts(files, context_, loader_);
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

const PluginRole* PluginHosts::InheritedRole(const std::string& path) const {
  auto it = inherited_.find(path);
  return it == inherited_.end() ? nullptr : &it->second;
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
      scope->closure = BuildClosure(stored, path, real_path, loader_, store_, memo_);
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
