#include "audit/cmake/dependency_locator.h"

#include <algorithm>

#include "audit/cmake/assigned_variables.h"
#include "audit/cmake/cmake_modules.h"
#include "audit/cmake/condition.h"
#include "audit/cmake/found_false.h"
#include "audit/cmake/genex.h"
#include "audit/cmake/lists.h"
#include "audit/cmake/target_namespace.h"
#include "audit/fs/path.h"

namespace rocm_audit {
namespace {

constexpr size_t kMaxEvaluatedDependencies = 256;  ///< configs outside the audited ones, per run
/// Evaluations of one config with a caller's variables or targets (WithCallersScope), and of all
/// configs in a run, over those above: bounded apart, so that they take no evaluation from
/// the packages audited after them.
constexpr size_t kMaxEvaluationsWithCallersScope = 8;
constexpr size_t kMaxRunEvaluationsWithCallersScope = 256;
/// Evaluations one inside the other: a find_package() chain (Qt6's deepest modules are 15
/// levels above Qt6Core).
constexpr int kMaxDependencyDepth = 24;

// What `found` says of a dependency found as CMake's own Find<Name>.cmake.
std::string FoundAsCMakeModule(const std::string& name) { return "Find" + name + ".cmake of CMake"; }
bool IsCMakeModuleFound(const LocatedDependency& l, const CMakeDependency& d) {
  return l.found == FoundAsCMakeModule(d.name);
}

// The targets a Find module of CMake defines (FindModuleTargets); false when not known. A
// language's target is among them for a language the consumer enables and the call asks
// for, every enabled one when it asks for none (FindMPI, FindOpenMP: CMAKE_<LANG>_COMPILER_LOADED
// and <Name>_FIND_COMPONENTS).
bool ModuleTargets(const LocatedDependency& l, TargetNames& out) {
  const CMakeDependency& d = l.request;
  if (!IsCMakeModuleFound(l, d)) return false;
  const std::vector<std::string_view>* targets = FindModuleTargets(d.name);
  if (!targets) return false;
  const std::vector<std::string>& enabled = d.languages;
  auto asked = [&](std::string_view language) {
    if (d.components.empty() && d.optional_components.empty()) return true;
    for (const auto* list : {&d.components, &d.optional_components})
      if (std::find(list->begin(), list->end(), language) != list->end() ||
          (language == "CXX" && std::find(list->begin(), list->end(), "MPICXX") != list->end()))
        return true;
    return false;
  };
  TargetNames::Set defined;
  for (std::string_view t : *targets) {
    const std::string_view language = FindModuleTargetLanguage(d.name, t);
    if (language.empty() ||
        (std::find(enabled.begin(), enabled.end(), language) != enabled.end() && asked(language)))
      defined.emplace(t);
  }
  out = out.With(TargetNames(std::move(defined)));
  return true;
}

// Where the evaluation of a dependency asked with components is kept: what Qt5Config.cmake
// defines depends on them (it loads Qt5<Component>Config.cmake for each).
// A shipped Find module runs with its caller's CMAKE_MODULE_PATH, kept with it.
std::string EvaluatedKey(const std::string& config, const CMakeDependency& d) {
  const std::string module = d.module.empty() ? "" : "\nCMAKE_MODULE_PATH " + d.module_path;
  if (d.components.empty() && d.optional_components.empty()) return config + module;
  return config + "\n" + JoinList(d.components) + "\n" + JoinList(d.optional_components) + module;
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
    for (const std::string& d : *files_.GlobKept(dir + "/*", GlobOrder::kAsListed))
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
  const std::string config = name + "Config.cmake", lower_config = lower + "-config.cmake";
  for (const InstalledFiles::Listing& dir : l.config_dirs)
    if (dir.MayHold(config) || dir.MayHold(lower_config)) return true;
  return false;
}

DependencyLocator::DependencyLocator(std::vector<CMakePackage*> audited, std::vector<std::string> prefixes,
                                     size_t given, bool system, const InstalledFiles& files,
                                     ConfigSearch& configs)
    : audited_(std::move(audited)),
      prefix_path_(std::move(prefixes)),
      given_prefixes_(std::min(given, prefix_path_.size())),
      restores_prefix_dir_(CompareVersions(kCMakeVersion, "3.30") >= 0),
      files_(files),
      configs_(configs) {
  for (CMakePackage* p : audited_) audited_at_.emplace(p->config, p);
  // Given --cmake-prefix-path, that is the consumer's CMAKE_PREFIX_PATH and nothing else:
  // the audited paths are no prefix CMake searches (sid's AMDDeviceLibs config under
  // /usr/lib/llvm-21 is found by no consumer whose prefix path is /usr).
  if (given_prefixes_ > 0) prefix_path_.resize(given_prefixes_);
  if (!system) return;
  path_ = PathPrefixes();
  system_ = SystemPrefixes();
  // /usr/share/cmake-<version>/Modules: the version is what follows the 17 characters before it.
  std::string newest;
  for (const std::string& dir : files_.Glob("/usr/share/cmake-*/Modules")) {
    const std::string version = dir.substr(17, dir.size() - 17 - 8);
    if (cmake_modules_.empty() || CompareVersions(version, newest) > 0)
      cmake_modules_ = dir, newest = version;
  }
  if (!newest.empty()) restores_prefix_dir_ = CompareVersions(newest, "3.30") >= 0;
}

DependencyLocator::~DependencyLocator() = default;

void DependencyLocator::EvaluateAudited() {
  for (CMakePackage* p : audited_) {
    if (audited_at_.at(p->config) == p) {
      Evaluated(p->config, p->name, p->config, nullptr);
      files_.programs().ForgetUnshared();
      continue;
    }
    // The same config audited twice: evaluated again as this one.
    *p = EvaluatePackage(p->name, p->config, files_, {}, this);
    ++evaluations_;
    LocateDependencies(*p);
  }
}

DependencyResolver::Answer DependencyLocator::Resolve(const CMakeDependency& d,
                                                      const std::map<std::string, CMakeDefinition>& commands,
                                                      const CallerScope& caller) {
  const std::set<std::string>* absent = nullptr;
  LocatedDependency l = LocateAndEvaluate(d, &commands, &caller, &absent);
  Answer a;
  a.counts = !l.found.empty() || d.required;
  a.absent = l.found.empty() && !system_.empty();
  a.defined.targets = std::move(l.targets);
  a.defined.known = l.targets_known;
  a.defined.evaluated = l.evaluated;
  a.defined.cmake_module = IsCMakeModuleFound(l, d);
  if (!l.found.empty() && l.found.starts_with("/"))
    a.package = Interpreter::ForeignTargets::Package{l.version,
                                                     d.module.empty() ? l.found : "",
                                                     std::move(l.definitions),
                                                     std::move(l.variables),
                                                     std::move(l.world_answers),
                                                     restores_prefix_dir_};
  if (IsCMakeModuleFound(l, d)) a.machine_variables = MachineVariables(d.name);
  a.commands_from = std::move(l.request.commands_from);
  a.caller_variables = std::move(l.request.caller_variables);
  a.caller_targets = std::move(l.request.caller_targets);
  // Found nowhere on an installed system whose every prefix is known: it loads nothing.
  a.modules_included =
      a.absent ? std::make_shared<const std::vector<std::string>>() : std::move(l.modules_included);
  a.absent_targets_tested = absent;
  return a;
}

// The variables CMake's Find<Name>.cmake of the installed system may set (its text's and
// its documented result variables), read once a run.
std::shared_ptr<const std::vector<std::string>> DependencyLocator::MachineVariables(const std::string& name) {
  if (cmake_modules_.empty()) return nullptr;
  auto [it, added] = machine_variables_.try_emplace(name);
  if (added) {
    // Read once for both: the text's assignments and its documentation's result variables.
    const std::string module = cmake_modules_ + "/Find" + name + ".cmake";
    if (std::optional<std::string> text = files_.Read(module, EvaluatorLimits{}.max_file_bytes)) {
      std::vector<std::string> names = VariablesItMaySet(*ParseProgram(module, *text));
      const std::vector<std::string> documented = DocumentedResultVariables(*text);
      names.insert(names.end(), documented.begin(), documented.end());
      std::sort(names.begin(), names.end());
      names.erase(std::unique(names.begin(), names.end()), names.end());
      it->second = std::make_shared<const std::vector<std::string>>(std::move(names));
    }
  }
  return it->second;
}

const DependencyLocator::Node* DependencyLocator::Evaluated(
    const std::string& key, const std::string& name, const std::string& config, const CMakeDependency* asked,
    SharedDefinitions commands, const std::vector<std::pair<std::string, CMakeValue>>& variables,
    const std::vector<std::string>& targets) {
  if (auto it = nodes_.find(key); it != nodes_.end()) return it->second.done ? &it->second : nullptr;
  auto audited = audited_at_.find(key);
  const bool outside = audited == audited_at_.end();
  // Refused for now, not for the run: asked again from less deep, it is evaluated then. One
  // with a caller's variables or targets is bounded by WithCallersScope.
  const bool counted = outside && variables.empty() && targets.empty();
  if (depth_ >= kMaxDependencyDepth || (counted && outside_ >= kMaxEvaluatedDependencies)) return nullptr;
  Node& n = nodes_[key];
  ++depth_;
  ++evaluations_;
  if (!outside) {
    n.package = audited->second;
    *n.package = EvaluatePackage(n.package->name, config, files_, {}, this);
  } else {
    if (counted) ++outside_;
    GivenVariables given{variables, std::move(commands), targets};
    // A shipped Find module runs with its caller's CMAKE_MODULE_PATH; so does a config run
    // with its caller's commands (Qt6WaylandScannerTools then finds WaylandScanner in the
    // module directory Qt6Config.cmake added).
    if (asked && (!asked->module.empty() || (given.commands && asked->module_path_known)))
      given.variables.emplace_back("CMAKE_MODULE_PATH", asked->module_path);
    n.owned = std::make_unique<CMakePackage>(
        asked && (!asked->components.empty() || !asked->optional_components.empty())
            ? EvaluatePackageAsked(name, config, {asked->components, asked->optional_components}, files_, {},
                                   this, given)
            : EvaluatePackage(name, config, files_, {}, this, given));
    n.package = n.owned.get();
  }
  Finish(n);
  --depth_;
  return &n;
}

namespace {

bool SameDefinitions(const SharedDefinitions& a, const SharedDefinitions& b) {
  if (a == b) return true;
  if (!a || !b || a->size() != b->size()) return false;
  return std::equal(a->begin(), a->end(), b->begin(), [](const auto& x, const auto& y) {
    return x.first == y.first && x.second.SameAs(y.second);
  });
}

// The commands a consumer that finds the package has: global in CMake, so those of its
// dependencies too, and its own win over theirs (it loads them first, then defines its own).
// `own` holds what the dependencies it found defined already (find_package() imported them);
// it is kept as it is, or as a dependency's map when it holds the same, so the packages that
// define nothing of their own share one map.
SharedDefinitions MergedDefinitions(const SharedDefinitions& own,
                                    const std::vector<LocatedDependency>& found) {
  auto merged = std::make_shared<std::map<std::string, CMakeDefinition>>();
  bool added = false;
  for (const LocatedDependency& l : found) {
    if (!l.definitions) continue;
    for (const auto& [name, d] : *l.definitions)
      if (!own || !own->count(name)) {
        (*merged)[name] = d;
        added = true;
      }
  }
  if (!added) {
    for (const LocatedDependency& l : found)
      if (SameDefinitions(own, l.definitions)) return l.definitions;
    return own;
  }
  if (own)
    for (const auto& [name, d] : *own) (*merged)[name] = d;
  return merged;
}

// The targets of `p` (evaluated, with `defined` all it and its dependencies define, `known`
// when that is all) and of its dependencies that fail the generate step of a consumer that
// links them (Node::unusable). CMake evaluates every INTERFACE_* property of what a consumer
// links, and the expressions that look a target up fail when it does not exist; a target
// whose link interface names such a target fails its consumers too. A name is judged only
// where what defines it is known whole.
std::shared_ptr<const UnusableTargets> Unusable(const CMakePackage& p, const TargetNames& defined,
                                                bool known) {
  UnusableTargets out;
  // Where a dependency's targets are not all known, a name of its namespaces may be its (as
  // cmake-missing-target and if(TARGET) read them: FindCUDAToolkit's CUDA:: too).
  std::set<std::string> unknown;
  for (const LocatedDependency& l : p.dependencies) {
    if (l.unusable_targets) out.insert(l.unusable_targets->begin(), l.unusable_targets->end());
    if (!known && (!l.targets_known || !l.request.undecided.empty()))
      unknown.merge(FindModuleNamespaces(l.request.name, l.targets));
  }
  const std::vector<CMakeTarget>& targets = p.evaluation.targets;
  if (known || !p.evaluation.stopped)
    for (const CMakeTarget& t : targets) {
      if (!t.imported) continue;
      for (const auto& [property, value] : t.properties) {
        if (!property.starts_with("INTERFACE_") || !value.known) continue;
        for (const TargetReference& r : TargetsNamedByItems(value.text))
          if (!defined.count(r.target) && !unknown.count(TargetNamespaceOrName(r.target)) &&
              !out.count(t.name))
            out.emplace(t.name, UnusableTarget{r.target, property + " of " + t.name + " names " + r.target +
                                                             " in $<" + r.expression + ":" + r.target +
                                                             ">, a target " + p.name +
                                                             " and its dependencies never define"});
      }
    }
  if (out.empty()) return nullptr;
  // Through link interfaces, one round per link of the longest chain (bounded by the targets).
  for (size_t round = 0, changed = 1; changed && round < targets.size(); ++round) {
    changed = 0;
    for (const CMakeTarget& t : targets) {
      if (!t.imported || out.count(t.name)) continue;
      CMakeValue joined;
      const auto [links, property] = t.LinkInterface(&joined);
      if (!links || !links->known) continue;
      for (const std::string& item : InstallInterfaceItems(links->text))
        if (auto it = out.find(item); it != out.end()) {
          out.emplace(t.name, it->second);
          changed = 1;
          break;
        }
    }
  }
  return std::make_shared<const UnusableTargets>(std::move(out));
}

// Why `p`'s own config stops every consumer's configure, whatever the consumer asks for: a
// file its Targets file checks and does not find (the generated "The imported target ...
// references the file ... but this file does not exist" loop, a FATAL_ERROR), or a file it
// include()s that is not there (DengCore's, under an unset DENG_SDK_DIR). CMake then
// fails the configure of whoever loads `p`, through any find_dependency() above it; "" when
// no such file is missing. The file is named by its name alone: the dependency's own finding
// says where. The config's other failures are not taken: evaluated apart from the package
// that loads it, a config may miss what that package defines first (Qt6's modules call
// functions Qt6Config.cmake defines), which CMake, loading both, never does.
std::string StopsItsOwnConfigure(const CMakePackage& p) {
  for (const CMakeReference& r : p.evaluation.references)
    if (!r.exists && (r.stops_configure || r.via == "include") && !r.optional && r.undecided.empty() &&
        r.asked_component.empty()) {
      const std::string at = std::string(BaseName(r.site.file.str())) + ":" + std::to_string(r.site.line);
      if (!r.stops_configure) return p.name + " fails: include(" + r.path + ") finds no file (" + at + ")";
      return p.name + " fails: " + std::string(BaseName(r.path)) + " is not installed (" + at +
             " stops at configure)";
    }
  return "";
}

// The failure where the evaluation stopped at a command no list file run so far defined, when
// nothing made it undecided; null when none.
const CMakeFailure* UnknownCommandStop(const CMakeEvaluation& e) {
  for (const CMakeFailure& f : e.failures)
    if (!f.unknown_command.empty() && f.undecided.empty()) return &f;
  return nullptr;
}

bool StopsAtAnUnknownCommand(const CMakeEvaluation& e) { return UnknownCommandStop(e) != nullptr; }

// An include(<Module>) the config makes that finds no module, when nothing made it undecided
// (null when none): CMake fails the configure of whoever loads the config without that module
// in its CMAKE_MODULE_PATH (KPim6Akonadi's include(ECMMarkAsTest) fails KPim6AkonadiCalendar's
// consumers too).
const CMakeFailure* IncludesAModuleFoundNowhere(const CMakePackage& p) {
  for (const CMakeFailure& f : p.evaluation.failures)
    if (!f.module_not_found.empty() && f.undecided.empty() && f.asked_component.empty()) return &f;
  return nullptr;
}

// A command of one of CMake's modules the config calls before any file included the module,
// when nothing made it undecided (null when none): CMake stops the configure of whoever loads
// the config without having included the module first (sbml's FindBZ2.cmake calls
// check_library_exists()).
const CMakeFailure* CallsACommandOfAModuleNotIncluded(const CMakePackage& p) {
  for (const CMakeFailure& f : p.evaluation.failures)
    if (!f.module_command.empty() && f.undecided.empty() && f.asked_component.empty()) return &f;
  return nullptr;
}

// The caller had included, before its find_package() of `d`, a module that defines `command`
// (or may have: which modules it had included is not known).
bool CallerHasModuleCommand(const CMakeDependency& d, const std::string& command) {
  return !d.modules_included || AnyModuleDefines(*d.modules_included, command);
}

}  // namespace

// What a consumer that finds the package has of it, from its dependencies as located (each
// evaluated before it, or in progress above it: a cycle, not known).
void DependencyLocator::LocateDependencies(CMakePackage& p) {
  for (const CMakeDependency& d : p.evaluation.dependencies) p.dependencies.push_back(LocateAndEvaluate(d));
}

void DependencyLocator::Finish(Node& n) {
  CMakePackage& p = *n.package;
  LocateDependencies(p);
  n.known = !p.evaluation.stopped;
  TargetNames::Set own;
  for (const CMakeTarget& t : p.evaluation.targets) own.insert(t.name);
  if (!own.empty()) n.targets = TargetNames(std::move(own));
  for (const LocatedDependency& l : p.dependencies) {
    // An optional one it does without; one only a component asks for, a plain consumer too.
    if (l.found.empty() && (!l.request.required || !l.request.asked_component.empty())) continue;
    n.known &= l.request.undecided.empty() && l.targets_known;
    n.targets = n.targets.With(l.targets);
  }
  n.definitions = p.evaluation.definitions = MergedDefinitions(p.evaluation.definitions, p.dependencies);
  n.unusable = Unusable(p, n.targets, n.known);
  // CMakeFindDependencyMacro: a config whose find_dependency() fails sets <Name>_FOUND False
  // and returns, and find_package() of it fails in turn, up to whoever required it. A
  // dependency only a component asks for, or one met on an undecided branch, fails no one
  // here. A shipped Find module counts as a config does: it runs with its caller's
  // CMAKE_MODULE_PATH (VTK's FindTHEORA.cmake asks for OGG, which VTK's own FindOGG.cmake
  // finds there).
  n.missing_below = StopsItsOwnConfigure(p);
  if (const CMakeFailure* f = n.missing_below.empty() ? IncludesAModuleFoundNowhere(p) : nullptr) {
    n.missing_below = p.name + " fails: include(" + f->module_not_found + ") finds no module (" +
                      std::string(BaseName(f->site.file.str())) + ":" + std::to_string(f->site.line) +
                      ": in neither CMake's modules nor CMAKE_MODULE_PATH)";
    n.missing_module = f->module_not_found;
  }
  if (const CMakeFailure* f = n.missing_below.empty() ? CallsACommandOfAModuleNotIncluded(p) : nullptr) {
    n.missing_below = p.name + " fails: " + f->module_command + "() is an unknown command at " +
                      std::string(BaseName(f->site.file.str())) + ":" + std::to_string(f->site.line) + " (" +
                      std::string(ModuleOfCommand(f->module_command)) +
                      ", which defines it, is not included)";
    n.missing_command = f->module_command;
  }
  for (const LocatedDependency& l : p.dependencies) {
    const CMakeDependency& d = l.request;
    if (!n.missing_below.empty()) break;
    if (!d.required || !d.asked_component.empty() || !d.undecided.empty()) continue;
    if (l.found.empty())
      n.missing_below = d.name +
                        (!l.module_finds_none.empty() ? " is found nowhere (CMake's Find" + d.name +
                                                            ".cmake: " + l.module_finds_none + "; "
                         : l.rejected.empty() ? " is found nowhere ("
                                              : " " + d.version + " is accepted by no config (") +
                        p.name + " asks for it at " + std::string(BaseName(d.site.file.str())) + ":" +
                        std::to_string(d.site.line) + ")";
    else
      n.missing_below = l.missing_below, n.missing_module = l.missing_module,
      n.missing_command = l.missing_command;
  }
  n.done = true;
}

bool DependencyLocator::MayHoldModule(const CMakeDependency& d, const std::string& module) const {
  if (!d.module_path_known) return true;
  for (const std::string& dir : SplitList(d.module_path))
    if (files_.Exists(dir + "/" + module + ".cmake") != Tri::kFalse) return true;
  return false;
}

LocatedDependency DependencyLocator::LocateAndEvaluate(const CMakeDependency& d,
                                                       const std::map<std::string, CMakeDefinition>* commands,
                                                       const CallerScope* caller,
                                                       const std::set<std::string>** absent) {
  LocatedDependency l = Locate(d);
  const Node* q = nullptr;
  if (!l.found.empty() && l.found.starts_with("/")) {
    // A config asked for components is evaluated for that request, audited or not.
    const std::string key = EvaluatedKey(l.found, d);
    q = Evaluated(key, d.name, l.found, &d);
    std::string q_key = key;
    if (q) q = WithCallersScope(q, &q_key, d, l, caller);
    // Evaluated apart, it stopped at a command its caller has defined (Qt6CoreTools' config
    // calls _qt_internal_find_third_party_dependencies, which Qt6Config.cmake defined before
    // Qt6Core found it): as CMake runs it, with the caller's commands, once per definition of
    // that command. The call records which (commands_from), and is located again by it; a
    // caller that lacks the command (Qt6WidgetsTools, found alone) keeps the failure.
    const CMakeFailure* stop = q ? UnknownCommandStop(q->package->evaluation) : nullptr;
    if (stop && commands) {
      if (auto def = commands->find(ToLower(stop->unknown_command));
          def != commands->end() && def->second.program)
        l.request.commands_from =
            def->first + " of " + def->second.program->file.str() + ":" + std::to_string(def->second.begin);
    }
    if (stop && !l.request.commands_from.empty()) {
      const std::string with = q_key + "\nwith " + l.request.commands_from + "\nCMAKE_MODULE_PATH " +
                               (d.module_path_known ? d.module_path : "?");
      // The caller's commands are copied only for an evaluation not made yet.
      const Node* r = nullptr;
      if (auto n = nodes_.find(with); n != nodes_.end())
        r = n->second.done ? &n->second : nullptr;
      else if (commands)
        r = Evaluated(with, d.name, l.found, &d,
                      std::make_shared<const std::map<std::string, CMakeDefinition>>(*commands),
                      l.request.caller_variables, l.request.caller_targets);
      if (r) q = r;
    }
  }
  // One that stopped at a command its caller may define is not evaluated in part: what it
  // would define after it is unknown, not absent.
  l.evaluated = q != nullptr && !StopsAtAnUnknownCommand(q->package->evaluation);
  if (!q) {
    if (!CMakeModuleFindsNone(d, l)) l.targets_known = ModuleTargets(l, l.targets);
    // CMake's own Find module: what it includes, as its text does (a superset of what one run
    // includes: a command is never taken as missing that it may have defined).
    if (IsCMakeModuleFound(l, d))
      l.modules_included = std::make_shared<const std::vector<std::string>>(1, "Find" + d.name);
    return l;
  }
  const CMakePackage& p = *q->package;
  if (absent && !p.evaluation.absent_targets_tested.empty()) *absent = &p.evaluation.absent_targets_tested;
  // What fails for want of a module holds where the caller's module path lacks it too (each
  // link of a chain checks its own: a config runs in its caller's scope).
  if ((q->missing_module.empty() || !MayHoldModule(d, q->missing_module)) &&
      (q->missing_command.empty() || !CallerHasModuleCommand(d, q->missing_command))) {
    l.missing_below = q->missing_below;
    l.missing_module = q->missing_module;
    l.missing_command = q->missing_command;
  }
  if (!d.module.empty())
    for (const LocatedDependency& m : p.dependencies)
      l.through_module.push_back({m.request.name, m.request.version, m.found});
  l.version = p.version;
  l.variables = p.evaluation.variables ? p.evaluation.variables : CMakeVariables(CMakeVariables::Map{});
  l.world_answers = p.evaluation.world_answers;
  l.targets = q->targets;
  l.targets_known = q->known;
  l.definitions = q->definitions;
  l.unusable_targets = q->unusable;
  if (l.evaluated) l.modules_included = p.evaluation.modules_included;
  return l;
}

namespace {

// `own`, what a config left set, is what the caller gives it: the same text, or the same
// truth of two boolean constants (find_package() leaves Qt6_FOUND 1, Qt6Config.cmake TRUE).
bool SameAsItsOwn(const CMakeValue* own, const CMakeValue& given) {
  if (!own || own->maybe_unset || own->known != given.known) return false;
  if (own->text == given.text) return true;
  return (IsTrueConstant(own->text) && IsTrueConstant(given.text)) ||
         (IsFalseConstant(own->text) && IsFalseConstant(given.text));
}

}  // namespace

// A config runs in its caller's scope. Evaluated apart, its conditions read some variables
// unset; where the caller had set any of them at the call (adios2's config includes its MPI
// build when MPI_FOUND, which DOLFINX found before it), it is evaluated again with the
// caller's values of those, once per distinct set of them, for at most
// kMaxEvaluationsWithCallersScope sets. Not given: a variable the config itself leaves
// set to the caller's value, whose test only guards what it does anyway (Qt6CoreDependencies
// finds Qt6 unless Qt6_FOUND; given Qt6_FOUND alone, it would lack what finding Qt6 defines,
// which the caller has), while one it leaves otherwise is an input (RocksDB sets
// GFLAGS_USE_TARGET_NAMESPACE ON, which gflags' config defaults to FALSE); and CMake's own
// CMAKE_* variables, the consumer's, whose search paths the locator takes from the consumer
// (mrpt's configs append themselves to a CMAKE_PREFIX_PATH each caller has its own of).
// Likewise the targets its if(TARGET) tests, or its dependencies' (a generated Targets
// file's check of another export set's), found absent and the caller has: CMake's target
// table is the consumer's (ignition-physics5-all finds the tpelib component before tpe-plugin,
// whose tpe checks for the tpelib target). Not given: those the config defines itself, which
// a fresh consumer does not have before it (Qt6Core's config defines Qt6::Core unless it
// exists); nor, unless it fails apart, those its dependencies define: a config that tests for
// one before it finds the dependency reads the dependency's variables after (SuiteSparse's
// CHOLMOD finds AMD unless SuiteSparse::AMD exists, then tests AMD_FOUND), and the caller's
// values of those are not given. One that fails apart may fail for the test
// (KPim6KSieveCore's Targets file tests KPim6::KSieve before its config finds it, which
// KPim6KSieveUi found first). `d.caller_variables` and `d.caller_targets` recall
// them when it is located again after the caller's evaluation.
const DependencyLocator::Node* DependencyLocator::WithCallersScope(const Node* q, std::string* key,
                                                                   const CMakeDependency& d,
                                                                   LocatedDependency& l,
                                                                   const CallerScope* caller) {
  std::vector<std::pair<std::string, CMakeValue>> given;
  std::vector<std::string> targets;
  if (!caller) {
    given = d.caller_variables;
    targets = d.caller_targets;
  } else {
    const CMakeEvaluation& e = q->package->evaluation;
    for (const std::string& name : e.unset_in_conditions) {
      const CMakeValue* v = name.starts_with("CMAKE_") ? nullptr : caller->variable(name);
      if (!v) continue;
      if (!SameAsItsOwn(e.variables.Find(name), *v)) given.emplace_back(name, *v);
    }
    const bool fails = LeavesFoundFalse(e.variables, d.name);
    auto own = [&](const std::string& name) {
      return std::any_of(e.targets.begin(), e.targets.end(),
                         [&](const CMakeTarget& t) { return t.name == name; });
    };
    for (const std::string& name : e.absent_targets_tested)
      if (caller->has_target(name) && (fails || !q->targets.count(name)) && !own(name))
        targets.push_back(name);
  }
  if (given.empty() && targets.empty()) return q;
  std::string with = *key;
  if (!given.empty()) with += "\nvariables";
  for (const auto& [name, value] : given) with += "\n" + name + (value.known ? "=" + value.text : " unknown");
  if (!targets.empty()) with += "\ntargets";
  for (const std::string& name : targets) with += "\n" + name;
  if (!nodes_.count(with)) {
    size_t& made = with_callers_scope_[l.found];
    if (made >= kMaxEvaluationsWithCallersScope ||
        with_callers_scope_run_ >= kMaxRunEvaluationsWithCallersScope)
      return q;
    ++made, ++with_callers_scope_run_;
  }
  const Node* r = Evaluated(with, d.name, l.found, &d, nullptr, given, targets);
  if (!r) return q;
  l.request.caller_variables = std::move(given);
  l.request.caller_targets = std::move(targets);
  *key = std::move(with);
  return r;
}

// CMake's own Find<Name>.cmake, run where find_package() finds no config: evaluated in the
// installed world, its find_path() and find_library() answered there (FindCups finds no
// cups/cups.h in a root without libcups2-dev). Only a decided "none" is taken: <Name>_FOUND
// false, nothing in the module left unevaluated and no if() in it undecided. Most modules
// also probe the consumer's compilers and programs (FindMPI's compiler wrappers, FindBLAS's
// check_function_exists), whose answers are not known here: one that may find the package
// keeps its documented targets (FindModuleTargets).
bool DependencyLocator::CMakeModuleFindsNone(const CMakeDependency& d, LocatedDependency& l) {
  if (cmake_modules_.empty() || !IsCMakeModuleFound(l, d)) return false;
  const std::string module = cmake_modules_ + "/Find" + d.name + ".cmake";
  auto [it, added] = module_finds_none_.try_emplace(EvaluatedKey(module, d));
  // Asked again while it is evaluated (a cycle of modules), or too deep: not decided.
  if (added && depth_ < kMaxDependencyDepth && outside_ < kMaxEvaluatedDependencies &&
      files_.Exists(module) == Tri::kTrue) {
    ++depth_, ++outside_, ++evaluations_;
    EvaluatorLimits limits;
    limits.decided_only = true;
    const CMakeEvaluation e =
        EvaluateFindModule(d.name, module, {d.components, d.optional_components}, files_, limits, this);
    --depth_;
    const CMakeValue* found = e.variables.Find(d.name + "_FOUND");
    if (found && found->known && !found->maybe_unset && IsFalseConstant(found->text) && e.skipped.empty() &&
        !e.stopped && !e.undecided) {
      std::vector<std::string> not_found;  // named in byte order
      e.variables.ForEach([&](const std::string& name, const CMakeValue& value) {
        if (value.known && value.text == name + "-NOTFOUND") not_found.push_back(value.text);
      });
      std::sort(not_found.begin(), not_found.end());
      std::string missing;
      for (const std::string& m : not_found) missing += (missing.empty() ? "" : ", ") + m;
      it->second = missing.empty() ? "none" : missing;
    }
  }
  if (!it->second) return false;
  l.found.clear();
  l.targets = {};
  l.targets_known = true;
  l.module_finds_none = *it->second;
  return true;
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

LocatedDependency DependencyLocator::Locate(const CMakeDependency& d) {
  // What the search reads of the call: the same call from another config (Qt6's modules each
  // ask for Qt6 and Qt6Core the same way), or again, finds the same.
  std::string key = d.name + '\n' + d.version + (d.exact ? "\nEXACT\n" : "\n") + d.dir + '\n' + d.module +
                    (d.no_cmake_path ? "\n1" : "\n0") + (d.no_system_environment_path ? '1' : '0') +
                    (d.no_cmake_system_path ? '1' : '0');
  for (const std::vector<std::string>* list : {&d.hints, &d.paths}) key += '\n' + JoinList(*list);
  if (auto it = searched_.find(key); it != searched_.end()) {
    LocatedDependency l = it->second;
    l.request = d;
    return l;
  }
  LocatedDependency l = Search(d);
  LocatedDependency kept{{}, l.found, l.searched, l.rejected, {}, false};
  searched_.emplace(std::move(key), std::move(kept));
  return l;
}

LocatedDependency DependencyLocator::Search(const CMakeDependency& d) {
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
  if (l.found.empty() && l.rejected.empty() && module) l.found = FoundAsCMakeModule(d.name);
  // The prefixes are named only for a dependency not found; every audited directory is one.
  if (!l.found.empty()) l.searched = {};
  return l;
}

}  // namespace rocm_audit
