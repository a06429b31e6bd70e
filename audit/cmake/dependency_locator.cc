#include "audit/cmake/dependency_locator.h"

#include <algorithm>

#include "audit/cmake/cmake_modules.h"
#include "audit/cmake/lists.h"
#include "audit/fs/path.h"

namespace rocm_audit {
namespace {

constexpr size_t kMaxEvaluatedDependencies = 64;  ///< configs outside the audited ones, per run
constexpr int kMaxDependencyDepth = 8;

// The targets a Find module of CMake defines (FindModuleTargets); false when not known.
bool ModuleTargets(const LocatedDependency& l, std::set<std::string>& out) {
  if (l.found != "Find" + l.request.name + ".cmake of CMake") return false;
  const std::vector<std::string_view>* targets = FindModuleTargets(l.request.name);
  if (!targets) return false;
  out.insert(targets->begin(), targets->end());
  return true;
}

// Where the evaluation of a dependency asked with components is kept: what Qt5Config.cmake
// defines depends on them (it loads Qt5<Component>Config.cmake for each).
std::string EvaluatedKey(const std::string& config, const CMakeDependency& d) {
  if (d.components.empty() && d.optional_components.empty()) return config;
  return config + "\n" + JoinList(d.components) + "\n" + JoinList(d.optional_components);
}

}  // namespace

const std::optional<std::string>& ConfigSearch::Under(const std::string& prefix, const std::string& name) {
  auto key = std::make_pair(prefix, name);
  auto it = found_.find(key);
  if (it != found_.end()) return it->second;
  // Ruled out by the listings: not kept, a (prefix, name) pair for every audited directory
  // and every name asked grows as their product.
  static const std::optional<std::string> kNone;
  if (!MayHold(prefix, name)) return kNone;
  ++searches_;
  return found_.emplace(std::move(key), FindConfigUnder(prefix, name, files_)).first->second;
}

const ConfigSearch::Listed& ConfigSearch::ListedAt(const std::string& prefix) {
  auto it = listed_.find(prefix);
  if (it != listed_.end()) return it->second;
  Listed l;
  // The directories FindConfigUnder reads <name>* entries of (package_config.cc), and more:
  // the prefix, and (lib/<arch>|lib64|lib32|libx32|lib|share) and their cmake/. Every other
  // directory it searches lies below a <name>* entry of these.
  auto list = [&](const std::string& dir) {
    for (const std::string& d : files_.Glob(dir + "/*", nullptr, GlobOrder::kAsListed))
      l.entries.push_back(ToLower(BaseName(d)));
  };
  list(prefix);
  for (const std::string& lib : {prefix + "/lib/" + std::string(kLibraryArchitecture), prefix + "/lib64",
                                 prefix + "/lib32", prefix + "/libx32", prefix + "/lib", prefix + "/share"}) {
    list(lib + "/cmake");
    list(lib);
  }
  std::sort(l.entries.begin(), l.entries.end());
  for (const std::string& dir : {prefix, prefix + "/cmake", prefix + "/CMake"})
    l.config_dirs.push_back(files_.List(dir));
  return listed_.emplace(prefix, std::move(l)).first->second;
}

bool ConfigSearch::MayHold(const std::string& prefix, const std::string& name) {
  // A name that is not one plain, visible path component is left to FindConfigUnder.
  if (name.empty() || name[0] == '.' || name.find('/') != std::string::npos) return true;
  const Listed& l = ListedAt(prefix);
  const std::string lower = ToLower(name);
  auto first = std::lower_bound(l.entries.begin(), l.entries.end(), lower);
  if (first != l.entries.end() && first->starts_with(lower)) return true;
  for (const InstalledFiles::Listing& dir : l.config_dirs)
    if (dir.MayHold(name + "Config.cmake") || dir.MayHold(lower + "-config.cmake")) return true;
  return false;
}

DependencyLocator::DependencyLocator(std::vector<CMakePackage*> audited, std::vector<std::string> prefixes,
                                     size_t given, bool system, const InstalledFiles& files,
                                     ConfigSearch& configs)
    : audited_(std::move(audited)),
      prefix_path_(std::move(prefixes)),
      given_prefixes_(std::min(given, prefix_path_.size())),
      files_(files),
      configs_(configs) {
  for (const CMakePackage* p : audited_) audited_at_.emplace(p->config, p);
  // Given --cmake-prefix-path, that is the consumer's CMAKE_PREFIX_PATH and nothing else:
  // the audited paths are no prefix CMake searches (sid's AMDDeviceLibs config under
  // /usr/lib/llvm-21 is found by no consumer whose prefix path is /usr).
  if (given_prefixes_ > 0) prefix_path_.resize(given_prefixes_);
  if (!system) return;
  // The consumer's PATH, taken to be Debian's default for a user (ENV_PATH of
  // /etc/login.defs: /usr/local/bin:/usr/bin:/bin:/usr/local/games:/usr/games), each entry
  // ending in /bin or /sbin made its parent (cmFindPackageCommand::
  // FillPrefixesSystemEnvironment).
  path_ = {"/usr/local", "/usr", "/", "/usr/local/games", "/usr/games"};
  // CMAKE_SYSTEM_PREFIX_PATH as Debian 12's CMake 3.25 sets it (Platform/UnixPaths.cmake):
  // /usr/local;/usr;/, CMake's own prefix /usr, CMAKE_INSTALL_PREFIX /usr/local, then
  // /usr/X11R6;/usr/pkg;/opt.
  system_ = {"/usr/local", "/usr", "/", "/usr/X11R6", "/usr/pkg", "/opt"};
}

DependencyLocator::~DependencyLocator() = default;

void DependencyLocator::Locate(const std::vector<CMakePackage*>& packages) {
  for (CMakePackage* p : packages) {
    variables_.erase(p);  // evaluated again: what it left may differ
    LocateAll(p, 0);
  }
  // What an audited package has of its dependencies changes only when one they lead to was
  // evaluated again: collect it again for those; the others keep what they have (configs
  // outside the audited ones are evaluated once and never change).
  stale_ = LeadingTo(packages);
  const std::set<const CMakePackage*>& stale = stale_;
  std::map<const CMakePackage*, Collected> collected;
  for (CMakePackage* p : audited_) {
    if (!stale.count(p)) continue;
    for (LocatedDependency& l : p->dependencies) {
      l.targets.clear();
      l.targets_known = false;
      l.definitions = {};
      l.variables = {};
      l.world_answers.clear();
      l.through_module.clear();
      l.evaluated = false;
      const CMakePackage* q = PackageAt(EvaluatedKey(l.found, l.request));
      std::set<const CMakePackage*> below{p};
      l.missing_below = q && l.request.module.empty() ? MissingBelow(q, below) : "";
      l.evaluated = q != nullptr;
      if (!q) {
        l.targets_known = ModuleTargets(l, l.targets);
        continue;
      }
      if (!l.request.module.empty())
        for (const LocatedDependency& m : q->dependencies)
          l.through_module.push_back({m.request.name, m.request.version, m.found});
      l.version = q->version;
      l.variables = VariablesOf(q);
      l.world_answers = q->evaluation.world_answers;
      const Collected& c = CollectedOf(q, collected);
      if (!c.reached.count(p)) {
        l.targets = c.targets;
        l.targets_known = c.known;
        l.definitions = c.definitions;
        continue;
      }
      // `p` lies below its own dependency (a cycle): what it defines is not the dependency's.
      std::set<const CMakePackage*> visiting{p};
      l.targets_known = TargetsOf(q, visiting, l.targets);
      visiting = {p};
      auto definitions = std::make_shared<std::map<std::string, CMakeDefinition>>();
      DefinitionsOf(q, visiting, *definitions);
      l.definitions = std::move(definitions);
    }
  }
}

const SharedVariables& DependencyLocator::VariablesOf(const CMakePackage* q) {
  // The evaluation's own map, shared: an evaluation again replaces it, never changes it.
  SharedVariables& v = variables_[q];
  if (!v) v = q->evaluation.variables.shared();
  if (!v) v = std::make_shared<const std::map<std::string, CMakeValue>>();
  return v;
}

const DependencyLocator::Collected& DependencyLocator::CollectedOf(
    const CMakePackage* q, std::map<const CMakePackage*, Collected>& memo) {
  auto it = memo.find(q);
  if (it != memo.end()) return it->second;
  Collected c;
  c.known = TargetsOf(q, c.reached, c.targets);
  // Commands are global in CMake: those of the dependency's own dependencies too, and the
  // dependency's own win over theirs (it loads them first, then defines its own).
  std::set<const CMakePackage*> visiting;
  auto definitions = std::make_shared<std::map<std::string, CMakeDefinition>>();
  DefinitionsOf(q, visiting, *definitions);
  c.definitions = std::move(definitions);
  return memo.emplace(q, std::move(c)).first->second;
}

void DependencyLocator::LocateAll(CMakePackage* p, int depth) {
  p->dependencies.clear();
  for (const CMakeDependency& d : p->evaluation.dependencies) p->dependencies.push_back(Locate(d, depth));
}

const VersionVerdict& DependencyLocator::Verdict(const CMakeDependency& d, const std::string& config,
                                                 bool module) {
  // With a Find module of CMake, find_package() runs the module first, and the module, not
  // a config's version file, judges the version.
  const std::string version = module ? "" : d.version;
  auto key = std::make_tuple(d.name, config, version, d.exact);
  auto it = verdicts_.find(key);
  if (it == verdicts_.end())
    it = verdicts_.emplace(key, CheckVersionFile(d.name, config, version, d.exact, files_)).first;
  return it->second;
}

LocatedDependency DependencyLocator::Locate(const CMakeDependency& d, int depth) {
  LocatedDependency l{d, {}, {}, {}, {}, false};
  const bool module = HasFindModule(d.name);
  auto accept = [&](const std::string& config) {
    const VersionVerdict& v = Verdict(d, config, module);
    if (v.accepted) {
      l.found = config;
      return true;
    }
    l.rejected.push_back({config, v.version, v.why});
    return false;
  };
  auto considered = [&](const std::string& f) {
    return std::find_if(l.rejected.begin(), l.rejected.end(), [&](const LocatedDependency::Rejected& r) {
             return r.config == f;
           }) != l.rejected.end();
  };
  auto search = [&](const std::vector<std::string>& prefixes) {
    for (const std::string& prefix : prefixes) {
      if (!l.found.empty()) return;
      // A prefix of two groups (/usr: PATH's and the system's) is searched once.
      if (std::find(l.searched.begin(), l.searched.end(), prefix) != l.searched.end()) continue;
      l.searched.push_back(prefix);
      if (const std::optional<std::string>& f = configs_.Under(prefix, d.name); f && !considered(*f))
        accept(*f);
    }
  };
  // A Find module of CMAKE_MODULE_PATH is what find_package() loads: it is evaluated as the
  // package's own code is, and judges the version itself.
  if (!d.module.empty()) l.found = d.module;
  // <Name>_DIR set: its directory first (cmFindPackageCommand::HandlePackageMode).
  if (l.found.empty() && d.dir.starts_with("/"))
    for (const std::string& f :
         {d.dir + "/" + d.name + "Config.cmake", d.dir + "/" + ToLower(d.name) + "-config.cmake"})
      if (files_.Exists(f) == Tri::kTrue) {
        accept(NormalizePath(f));
        break;
      }
  // find_package()'s order (cmFindPackageCommand::ComputePrefixes, 3.25): <Name>_ROOT and the
  // consumer's environment (unknown here: none), CMAKE_PREFIX_PATH (--cmake-prefix-path; without
  // it the audited packages and their prefixes, as ROCm's documentation has a consumer put
  // its install prefix there), HINTS, the PATH-derived prefixes, the system prefixes, PATHS. LLVM
  // 14's ClangConfig asks for LLVM with HINTS its own prefix, and a consumer whose prefix path
  // holds another LLVM gets that one.
  if (!d.no_cmake_path) {
    search(std::vector<std::string>(prefix_path_.begin(), prefix_path_.begin() + given_prefixes_));
    for (const CMakePackage* other : audited_)
      if (given_prefixes_ == 0 && l.found.empty() && ToLower(other->name) == ToLower(d.name) &&
          accept(other->config))
        break;
    search(std::vector<std::string>(prefix_path_.begin() + given_prefixes_, prefix_path_.end()));
  }
  search(d.hints);
  if (!d.no_system_environment_path) search(path_);
  if (!d.no_cmake_system_path) search(system_);
  search(d.paths);
  if (l.found.empty() && l.rejected.empty() && module) l.found = "Find" + d.name + ".cmake of CMake";
  // The prefixes are named only for a dependency not found; every audited directory is one.
  if (!l.found.empty()) l.searched = {};
  // A config asked for components is evaluated for that request, audited or not.
  const std::string key = EvaluatedKey(l.found, d);
  if (!l.found.empty() && !PackageAt(key) && l.found.starts_with("/") && depth < kMaxDependencyDepth &&
      evaluated_.size() < kMaxEvaluatedDependencies) {
    auto q = std::make_unique<CMakePackage>(
        key == l.found
            ? EvaluatePackage(d.name, l.found, files_)
            : EvaluatePackageAsked(d.name, l.found, {d.components, d.optional_components}, files_));
    q->passes.clear();  // a config outside the audited ones is evaluated once
    CMakePackage* raw = q.get();
    evaluated_[key] = std::move(q);
    LocateAll(raw, depth + 1);
  }
  return l;
}

const CMakePackage* DependencyLocator::PackageAt(const std::string& key) const {
  if (auto at = audited_at_.find(key); at != audited_at_.end()) return at->second;
  auto it = evaluated_.find(key);
  return it == evaluated_.end() ? nullptr : it->second.get();
}

std::vector<const CMakePackage*> DependencyLocator::Below(const CMakePackage* p) const {
  std::vector<const CMakePackage*> out;
  for (const LocatedDependency& l : p->dependencies)
    if (const CMakePackage* q = PackageAt(EvaluatedKey(l.found, l.request))) out.push_back(q);
  return out;
}

std::set<const CMakePackage*> DependencyLocator::AuditedBelow(const CMakePackage* p) const {
  std::set<const CMakePackage*> seen, out;
  std::vector<const CMakePackage*> todo = Below(p);
  while (!todo.empty()) {
    const CMakePackage* q = todo.back();
    todo.pop_back();
    if (!seen.insert(q).second) continue;
    if (audited_at_.count(q->config) && audited_at_.at(q->config) == q) out.insert(q);
    for (const CMakePackage* r : Below(q)) todo.push_back(r);
  }
  return out;
}

std::set<const CMakePackage*> DependencyLocator::LeadingTo(const std::vector<CMakePackage*>& changed) const {
  // Every package's dependencies, reversed; then whoever reaches one of `changed`.
  std::map<const CMakePackage*, std::vector<const CMakePackage*>> above;
  std::vector<const CMakePackage*> all(audited_.begin(), audited_.end());
  for (const auto& [key, q] : evaluated_) all.push_back(q.get());
  for (const CMakePackage* p : all)
    for (const CMakePackage* q : Below(p)) above[q].push_back(p);
  std::set<const CMakePackage*> out(changed.begin(), changed.end());
  std::vector<const CMakePackage*> todo(changed.begin(), changed.end());
  while (!todo.empty()) {
    const CMakePackage* q = todo.back();
    todo.pop_back();
    for (const CMakePackage* p : above[q])
      if (out.insert(p).second) todo.push_back(p);
  }
  return out;
}

// The targets `p` and its dependencies define; false when some could not be known.
bool DependencyLocator::TargetsOf(const CMakePackage* p, std::set<const CMakePackage*>& visiting,
                                  std::set<std::string>& out) {
  visiting.insert(p);
  bool known = !p->evaluation.stopped;
  for (const CMakeTarget& t : p->evaluation.targets) out.insert(t.name);
  for (const LocatedDependency& l : p->dependencies) {
    // An optional one it does without; one only a component asks for, a plain consumer too.
    if (l.found.empty() && (!l.request.required || !l.request.asked_component.empty())) continue;
    known &= l.request.undecided.empty();
    const CMakePackage* q = PackageAt(EvaluatedKey(l.found, l.request));
    if (!q) {
      known &= ModuleTargets(l, out);
      continue;
    }
    if (!visiting.count(q)) known &= TargetsOf(q, visiting, out);
  }
  return known;
}

namespace {

// Why `p`'s own config stops every consumer's configure, whatever the consumer asks for: a
// file its Targets file checks and does not find (the generated "The imported target ...
// references the file ... but this file does not exist" loop, a FATAL_ERROR). CMake then
// fails the configure of whoever loads `p`, through any find_dependency() above it; "" when
// no such file is missing. The file is named by its name alone: the dependency's own finding
// says where. The config's other failures are not taken: evaluated apart from the package
// that loads it, a config may miss what that package defines first (Qt6's modules call
// functions Qt6Config.cmake defines), which CMake, loading both, never does.
std::string StopsItsOwnConfigure(const CMakePackage& p) {
  for (const CMakeReference& r : p.evaluation.references)
    if (!r.exists && r.stops_configure && !r.optional && r.undecided.empty() && r.asked_component.empty())
      return p.name + " fails: " + std::string(BaseName(r.path)) + " is not installed (" +
             std::string(BaseName(r.site.file)) + ":" + std::to_string(r.site.line) + " stops at configure)";
  return "";
}

}  // namespace

// CMakeFindDependencyMacro: a config whose find_dependency() fails sets <Name>_FOUND False
// and returns, and find_package() of it fails in turn, up to whoever required it. A
// dependency only a component asks for, or one met on an undecided branch, fails no one here.
std::string DependencyLocator::MissingBelow(const CMakePackage* p,
                                            std::set<const CMakePackage*>& visiting) const {
  if (!visiting.insert(p).second) return "";
  if (std::string own = StopsItsOwnConfigure(*p); !own.empty()) return own;
  for (const LocatedDependency& l : p->dependencies) {
    const CMakeDependency& d = l.request;
    // A Find module is evaluated apart from the config that sets its CMAKE_MODULE_PATH (VTK's
    // FindTHEORA.cmake asks for OGG, which VTK's own FindOGG.cmake finds): what it fails to
    // find here says nothing.
    if (!d.required || !d.asked_component.empty() || !d.undecided.empty() || !d.module.empty()) continue;
    if (l.found.empty())
      return d.name +
             (l.rejected.empty() ? " is found nowhere" : " " + d.version + " is accepted by no config") +
             " (" + p->name + " asks for it at " + std::string(BaseName(d.site.file)) + ":" +
             std::to_string(d.site.line) + ")";
    if (const CMakePackage* q = PackageAt(EvaluatedKey(l.found, d)))
      if (std::string m = MissingBelow(q, visiting); !m.empty()) return m;
  }
  return "";
}

void DependencyLocator::DefinitionsOf(const CMakePackage* p, std::set<const CMakePackage*>& visiting,
                                      std::map<std::string, CMakeDefinition>& out) {
  visiting.insert(p);
  for (const LocatedDependency& l : p->dependencies)
    if (const CMakePackage* q = PackageAt(EvaluatedKey(l.found, l.request)); q && !visiting.count(q))
      DefinitionsOf(q, visiting, out);
  for (const auto& [name, d] : p->evaluation.definitions) out[name] = d;
}

DependencyTargets TargetsOfDependencies(const CMakePackage& package) {
  DependencyTargets out;
  out.complete = true;
  out.located = true;
  for (const LocatedDependency& l : package.dependencies) {
    if (l.found.empty() && (!l.request.required || !l.request.asked_component.empty())) continue;
    out.names.insert(l.targets.begin(), l.targets.end());
    // Asked for twice (other components), it defines what either call loads.
    auto [defined, first] = out.by_dependency.try_emplace(ToLower(l.request.name));
    defined->second.targets.insert(l.targets.begin(), l.targets.end());
    defined->second.known = (first || defined->second.known) && l.targets_known;
    if (!l.found.empty() && l.found.starts_with("/"))
      out.packages[ToLower(l.request.name)] = {l.version, l.request.module.empty() ? l.found : "",
                                               l.definitions, l.variables, l.world_answers};
    out.complete &= l.targets_known && l.request.undecided.empty();
  }
  return out;
}

}  // namespace rocm_audit
