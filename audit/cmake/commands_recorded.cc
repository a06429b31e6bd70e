// Commands that are recorded, never run: message() (FATAL_ERROR stops the configure),
// find_package/find_dependency (the dependency is noted; the check looks for its config),
// execute_process, try_compile, the find_* and check_* probes (their results are
// unknown), and commands with no effect on what a consumer imports.
#include <algorithm>
#include <cctype>
#include <optional>
#include <set>

#include "audit/cmake/cmake_modules.h"
#include "audit/cmake/commands.h"
#include "audit/cmake/condition.h"
#include "audit/cmake/file_search.h"
#include "audit/cmake/found_false.h"
#include "audit/cmake/lists.h"
#include "audit/cmake/pkg_config_world.h"
#include "audit/fs/path.h"

namespace rocm_audit {

// cmake_policy, cmake_minimum_required: the policy version targets defined from here on are
// judged by: the end of a range ("2.8.3...3.24" is 3.24), PUSH and POP around generated
// Targets files.
Flow PolicyCommand(Interpreter& in, const std::string& n, const Args& a) {
  std::vector<std::string>& versions = in.policy_versions();
  const std::string first = a.empty() ? "" : a[0].value.text;
  if (n == "cmake_policy" && first == "PUSH") versions.push_back(versions.back());
  if (n == "cmake_policy" && first == "POP" && versions.size() > 1) versions.pop_back();
  if (first == "VERSION" && a.size() >= 2 && a[1].value.known) {
    const std::string& v = a[1].value.text;
    size_t dots = v.find("...");
    versions.back() = dots == std::string::npos ? v : v.substr(dots + 3);
  }
  return Flow::kNormal;
}

Flow MessageCommand(Interpreter& in, const std::string&, const Args& a) {
  if (a.empty()) return Flow::kNormal;
  const std::string mode = a[0].quoted ? "" : a[0].value.text;
  if (mode != "FATAL_ERROR" && mode != "SEND_ERROR") return Flow::kNormal;
  std::string text;
  bool known = true;
  for (size_t k = 1; k < a.size(); ++k) {
    text += a[k].value.text;
    known &= a[k].value.known;
  }
  if (!known) text += " (with values not known here)";
  in.Fail(text);
  return mode == "FATAL_ERROR" ? Flow::kStop : Flow::kNormal;
}

// A dependency whose own evaluation left <Dep>_FOUND false (decided: FindMtdev's pkg-config
// answer from the world; a config whose find_dependency() failed, or whose Targets file
// misses a target it references) fails the find_package(), as cmFindPackageCommand takes a
// config that "set <Dep>_FOUND to FALSE" as not found; find_dependency() then does what
// CMakeFindDependencyMacro does: <Name>_NOT_FOUND_MESSAGE, <Name>_FOUND False and return();
// a find_package(... REQUIRED) stops the configure (cmFindPackageCommand: "... but it set
// <Dep>_FOUND to FALSE so package ... is considered to be NOT FOUND"; ignition-physics5's
// component tpe fails so for ignition-physics5-tpe-plugin). An unknown <Dep>_FOUND stays as
// found: what the consumer's machine has is not known here. nullopt: the call goes on.
std::optional<Flow> DependencySaysNotFound(Interpreter& in, const std::string& n, const CMakeDependency& d,
                                           const Interpreter::ForeignTargets::Package& module) {
  if (!LeavesFoundFalse(module.variables, d.name)) return std::nullopt;
  in.Set(d.name + "_FOUND", {"FALSE"});
  auto& answers = in.rec().Out().world_answers;
  answers.insert(answers.end(), module.world_answers.begin(), module.world_answers.end());
  if (n != "find_dependency") {
    // A Find module's own find_package_handle_standard_args() stops a required call.
    if (!d.required || module.config.empty()) return std::nullopt;
    std::string reason;
    if (const CMakeValue* m = module.variables.Find(d.name + "_NOT_FOUND_MESSAGE");
        m && m->known && !m->text.empty())
      reason = "  Reason given by package:\n" + m->text;
    in.Fail("Found package configuration file:\n  " + module.config + "\nbut it set " + d.name +
            "_FOUND to FALSE so package \"" + d.name + "\" is considered to be NOT FOUND." + reason);
    return Flow::kStop;
  }
  const CMakeValue* name = in.Get("CMAKE_FIND_PACKAGE_NAME");
  if (!name || !name->known) return std::nullopt;
  in.Set(name->text + "_NOT_FOUND_MESSAGE",
         {name->text + " could not be found because dependency " + d.name + " could not be found."});
  in.Set(name->text + "_FOUND", {"False"});
  return Flow::kReturn;
}

namespace {

// A HINTS or PATHS entry as the search uses it: an absolute one collapsed lexically
// (cmSearchPath::AddUserPath, CollapseFullPath), so Qt's `${CMAKE_CURRENT_LIST_DIR}/..` of
// each module is the one directory it names, searched once.
std::string SearchPathEntry(std::string entry) {
  return entry.starts_with("/") ? NormalizePath(entry) : entry;
}

// What a Find module of CMake leaves (FindOpenMP, FindThreads, FindMPI): it probes the
// consumer's compilers, so it is not evaluated; the model is its documented result. It ends
// in find_package_handle_standard_args(... HANDLE_COMPONENTS), which sets <Name>_FOUND and
// <NAME>_FOUND true only when every required component's <Name>_<Component>_FOUND is: a
// required call that succeeds found each component it asked for (SuiteSparse_config tests
// OpenMP_C_FOUND after find_dependency(OpenMP COMPONENTS C)); an optional one, or an
// optional component, is the consumer's machine's answer. What else the module sets
// (`machine`: FindPythonInterp's PYTHON_VERSION_MAJOR) is its probe's answer too: unknown,
// not unset, where nothing set it before.
void SetFindModuleResults(Interpreter& in, const CMakeDependency& d,
                          const std::vector<std::string>* machine) {
  if (machine)
    for (const std::string& v : *machine)
      if (!v.starts_with(d.name + "_FIND_") && !in.Get(v))
        in.Set(v, CMakeValue::Unknown("what CMake's Find" + d.name + " sets on the consumer's machine"));
  const CMakeValue* found = in.Get(d.name + "_FOUND");
  const CMakeValue result = found ? *found : CMakeValue::Unknown("whether the consumer has " + d.name);
  in.Set(ToUpper(d.name) + "_FOUND", result);
  // FindPkgConfig also sets the name the variable always had (`set(PKG_CONFIG_FOUND
  // "${PKGCONFIG_FOUND}")`): unset, every `if(PKG_CONFIG_FOUND)` read false (ignition's
  // FindUUID then never defined UUID::UUID).
  if (d.name == "PkgConfig") in.Set("PKG_CONFIG_FOUND", result);
  for (const std::string& c : d.components) in.Set(d.name + "_" + c + "_FOUND", result);
  for (const std::string& c : d.optional_components)
    in.Set(d.name + "_" + c + "_FOUND",
           CMakeValue::Unknown("whether the consumer's " + d.name + " has " + c));
}

// CMAKE_MODULE_PATH after a config that left `after` in it. The config was evaluated apart,
// without its caller's path, and configs add to the path (Qt6Config.cmake's
// list(APPEND CMAKE_MODULE_PATH ...)): the caller's entries stay first. Calamares puts its
// own directory there, then finds Qt6, then includes its modules from it.
CMakeValue ModulePathAfter(const CMakeValue* caller, const CMakeValue& after) {
  if (!caller || (caller->known && caller->text.empty())) return after;
  if (!caller->known) return *caller;
  if (!after.known) return after;
  // Evaluated with the caller's path already (a config run with its caller's commands).
  if (after.text == caller->text || after.text.starts_with(caller->text + ";")) return after;
  CMakeValue joined = *caller;
  if (!after.text.empty()) joined.text += ";" + after.text;
  return joined;
}

// What the caller's scope holds at the call that the search and the evaluation read: its
// CMAKE_MODULE_PATH, <Name>_DIR, and the languages enabled (CMAKE_<LANG>_COMPILER_LOADED: C
// and CXX from the consumer's project(), others from enable_language()).
void NoteCallersScope(Interpreter& in, CMakeDependency& d) {
  if (const CMakeValue* module_path = in.Get("CMAKE_MODULE_PATH")) {
    d.module_path = module_path->text;
    d.module_path_known = module_path->known && !module_path->maybe_unset;
  } else {
    d.module_path_known = true;
  }
  if (const CMakeValue* dir = in.Get(d.name + "_DIR"); dir && dir->known && !IsFalseConstant(dir->text))
    d.dir = dir->text;
  for (const char* language : {"C", "CXX", "Fortran", "CUDA", "HIP", "OBJC", "OBJCXX"})
    if (const CMakeValue* loaded = in.Get(std::string("CMAKE_") + language + "_COMPILER_LOADED");
        loaded && loaded->known && !IsFalseConstant(loaded->text))
      d.languages.push_back(language);
}

// find_package()'s options that leave out groups of prefixes (cmFindPackageCommand::
// ComputePrefixes): NO_DEFAULT_PATH all but HINTS and PATHS.
void NoteSearchOption(CMakeDependency& d, const std::string& option) {
  const bool all = option == "NO_DEFAULT_PATH";
  d.no_cmake_path |= all || option == "NO_CMAKE_PATH";
  d.no_system_environment_path |= all || option == "NO_SYSTEM_ENVIRONMENT_PATH";
  d.no_cmake_system_path |= all || option == "NO_CMAKE_SYSTEM_PATH";
}

// Find<name>.cmake in CMAKE_MODULE_PATH, "" when none.
std::string ShippedFindModule(Interpreter& in, const std::string& name) {
  const CMakeValue* module_path = in.Get("CMAKE_MODULE_PATH");
  if (!module_path || !module_path->known) return "";
  for (const std::string& dir : SplitList(module_path->text)) {
    const std::string path = NormalizePath(dir + "/Find" + name + ".cmake");
    if (path.starts_with("/") && in.files().Exists(path) == Tri::kTrue) return path;
  }
  return "";
}

// find_package()'s arguments (cmFindPackageCommand): the version, REQUIRED and the words
// after it, COMPONENTS, OPTIONAL_COMPONENTS, HINTS, PATHS, EXACT and the NO_* options.
CMakeDependency ReadFindPackageCall(Interpreter& in, const std::string& n, const Args& a) {
  CMakeDependency d;
  d.name = a[0].value.text;
  d.required = n == "find_dependency";
  d.site = in.rec().UserSite();
  d.undecided = in.rec().Undecided();
  std::string collecting;
  for (size_t k = 1; k < a.size(); ++k) {
    const std::string& t = a[k].value.text;
    if (t == "REQUIRED") {
      d.required = true;
      collecting = "COMPONENTS";  // cmFindPackageCommand: words after REQUIRED are components
    } else if (t == "HINTS" || t == "PATHS" || t == "COMPONENTS" || t == "OPTIONAL_COMPONENTS" ||
               t == "NAMES" || t == "CONFIGS" || t == "PATH_SUFFIXES") {
      collecting = t;
    } else if (t == "EXACT") {
      d.exact = true;
      collecting.clear();
    } else if (t == "QUIET" || t == "MODULE" || t == "CONFIG" || t == "NO_MODULE" || t.starts_with("NO_") ||
               t == "GLOBAL") {
      NoteSearchOption(d, t);
      collecting.clear();
    } else if (collecting == "HINTS" || collecting == "PATHS") {
      if (a[k].value.known) (collecting == "HINTS" ? d.hints : d.paths).push_back(SearchPathEntry(t));
    } else if (collecting == "COMPONENTS" || collecting == "OPTIONAL_COMPONENTS") {
      if (a[k].value.known && !t.empty())
        (collecting == "COMPONENTS" ? d.components : d.optional_components).push_back(t);
    } else if (k == 1 && collecting.empty() && !t.empty() && std::isdigit(static_cast<unsigned char>(t[0]))) {
      d.version = t;
    }
  }
  return d;
}

}  // namespace

Flow FindPackageCommand(Interpreter& in, const std::string& n, const Args& a) {
  if (a.empty()) return Flow::kNormal;
  if (!a[0].value.known) {
    in.NoteDependencyLoaded("", true);
    in.NoteModulesUnknown();
    return Flow::kNormal;
  }
  CMakeDependency d = ReadFindPackageCall(in, n, a);
  // In module mode (neither CONFIG nor NO_MODULE), a Find<Name>.cmake in CMAKE_MODULE_PATH
  // is found before any config: packages ship their own (glog's FindUnwind, CGAL's FindGMP).
  const bool config_mode = std::any_of(a.begin() + 1, a.end(), [](const Arg& x) {
    return !x.quoted && (x.value.text == "CONFIG" || x.value.text == "NO_MODULE");
  });
  if (!config_mode) d.module = ShippedFindModule(in, d.name);
  NoteCallersScope(in, d);
  d.modules_included = in.ModulesIncluded();
  in.SetDependencySeen();
  Interpreter::Resolution resolved = in.ResolveDependency(d);
  const bool absent = resolved.absent;
  const auto& found = in.foreign_targets().packages;
  const auto it = found.find(ToLower(d.name));
  d.commands_from = std::move(resolved.commands_from);
  d.caller_variables = std::move(resolved.caller_variables);
  d.caller_targets = std::move(resolved.caller_targets);
  in.ListFileEnded();  // the config or module found ran as a list file
  in.NoteDependencyLoaded(d.name, !d.undecided.empty());
  in.rec().Out().dependencies.push_back(d);
  // The dependency's own defects are its own findings: here it is taken as found when
  // required (a missing one is reported by the dependency check). An optional one is not
  // found (cmFindPackageCommand sets "0") where the whole system is known to lack it, and
  // otherwise the consumer's machine decides.
  in.Set(d.name + "_FOUND", d.required || n == "find_dependency" ? CMakeValue{"1"}
                            : absent                             ? CMakeValue{"0"}
                                     : CMakeValue::Unknown("whether the consumer has " + d.name));
  if (!config_mode && d.module.empty() && HasFindModule(d.name))
    SetFindModuleResults(in, d, resolved.machine_variables.get());
  // A dependency found and evaluated in the same run leaves what find_package() leaves: its
  // version, where its config is, and the commands its list files define.
  if (it != found.end()) {
    // Its list files ran in this scope (Qt6Config.cmake sets QT_CMAKE_EXPORT_NAMESPACE and
    // CMAKE_MODULE_PATH for the Qt modules that find it), but for what find_package() keeps
    // to each call: the file being read, the package name and its <Dep>_FIND_* variables.
    const CallerKeptVariables keep{d.name + "_FIND_", !it->second.config.empty(),
                                   it->second.restores_prefix_dir};
    in.AdoptVariables(it->second.variables, keep);
    if (const CMakeValue* path = it->second.variables.Find("CMAKE_MODULE_PATH"); path && keep.module_path)
      in.Set("CMAKE_MODULE_PATH", ModulePathAfter(in.Get("CMAKE_MODULE_PATH"), *path));
    in.Set(d.name + "_FOUND", {"1"});
    if (std::optional<Flow> stop = DependencySaysNotFound(in, n, d, it->second)) return *stop;
    if (!it->second.config.empty()) {  // "" for a Find module, which sets what it sets
      for (auto& [variable, value] : FoundVersionVariables(d.name + "_VERSION", it->second.version))
        in.Set(variable, {value});
      in.Set(d.name + "_CONFIG", {it->second.config});
      in.Set(d.name + "_DIR", {DirName(it->second.config)});
    }
    if (it->second.definitions) in.ImportDefinitions(*it->second.definitions);
  }
  return Flow::kNormal;
}

namespace {

// FindPkgConfig's checks answered by the world's .pc files: <prefix>_FOUND and, for each
// module found, <prefix>[_<module>]_VERSION and _MODULE_NAME (the flags and directories it
// sets besides are unknown); a module not found is recorded as the world's answer, which the
// failure it leads to names.
bool AskWorldPkgConfig(Interpreter& in, const std::string& n, const std::string& prefix,
                       const std::vector<std::string>& modules) {
  const std::vector<std::string> path = PkgConfigDefaultPath();
  std::vector<std::pair<std::string, PkgConfigAnswer>> found;
  std::string missing;
  for (const std::string& m : modules) {
    PkgConfigAnswer answer = PkgConfigExists(m, path, in.files());
    if (answer.found) {
      found.emplace_back(m.substr(0, m.find_first_of("<>=! ")), std::move(answer));
      if (n == "pkg_search_module") break;
    } else {
      missing += (missing.empty() ? "" : "; ") + answer.why;
      if (n == "pkg_check_modules") found.clear();
    }
  }
  const bool ok = n == "pkg_search_module" ? !found.empty() : missing.empty();
  in.Set(prefix + "_FOUND", ok ? CMakeValue{"1"} : CMakeValue{""});
  if (!ok) {
    in.rec().Out().world_answers.push_back("pkg-config of the audited world: " + missing);
    return false;
  }
  // What pkg-config prints of the modules' flags (their Libs and Cflags with those of every
  // module they require, system directories left out) is not worked out here; unset, each
  // read false (`if(NOT UUID_LIBRARIES)`), where CMake has the module's libraries.
  for (const char* flags : {"LIBRARIES", "LINK_LIBRARIES", "LIBRARY_DIRS", "LDFLAGS", "LDFLAGS_OTHER",
                            "INCLUDE_DIRS", "CFLAGS", "CFLAGS_OTHER"}) {
    in.Set(prefix + "_" + flags, CMakeValue::Unknown("the flags pkg-config gives for " + JoinList(modules)));
    in.Set(prefix + "_STATIC_" + flags,
           CMakeValue::Unknown("the flags pkg-config gives for " + JoinList(modules)));
  }
  for (const auto& [module, answer] : found) {
    const std::string at = found.size() == 1 ? prefix : prefix + "_" + module;
    in.Set(at + "_VERSION", {answer.version});
    in.Set(at + "_MODULE_NAME", {module});
    for (const char* variable : {"_PREFIX", "_INCLUDEDIR", "_LIBDIR"})
      in.Set(at + variable, CMakeValue::Unknown("pkg-config's variables of " + module));
  }
  return true;
}

}  // namespace

// pkg_check_modules(<prefix> [REQUIRED] [QUIET] [IMPORTED_TARGET [GLOBAL]] <module>...) and
// pkg_search_module: FindPkgConfig asks `pkg-config --exists` for each module (all of them,
// or the first that exists). A world that is a whole system answers from its .pc files, as
// pkg-config on that machine would; packages installed into no base leave it unknown. With
// IMPORTED_TARGET, FindPkgConfig defines PkgConfig::<prefix> when the modules are found.
Flow PkgCheckModulesCommand(Interpreter& in, const std::string& n, const Args& a) {
  if (a.empty() || !a[0].value.known) return Flow::kNormal;
  const std::string prefix = a[0].value.text;
  bool imported = false, required = false;
  std::vector<std::string> modules;
  bool modules_known = true;
  for (size_t k = 1; k < a.size(); ++k) {
    const std::string& t = a[k].value.text;
    imported |= !a[k].quoted && t == "IMPORTED_TARGET";
    required |= !a[k].quoted && t == "REQUIRED";
    if (t == "IMPORTED_TARGET" || t == "REQUIRED" || t == "QUIET" || t == "GLOBAL" || t == "NO_CMAKE_PATH" ||
        t == "NO_CMAKE_ENVIRONMENT_PATH")
      continue;
    modules_known &= a[k].value.known;
    modules.push_back(t);
  }
  if (!in.files().has_base() || !modules_known || modules.empty()) {
    in.Set(prefix + "_FOUND", in.UnknownResult(n));
  } else {
    const bool found = AskWorldPkgConfig(in, n, prefix, modules);
    if (!found && required) {
      in.Fail((n == "pkg_search_module" ? "None of the required '" + JoinList(modules) + "' found"
                                        : std::string("A required package was not found")) +
              " (" + in.rec().Out().world_answers.back() + ")");
      // pkg_check_modules stops with FATAL_ERROR; pkg_search_module's SEND_ERROR goes on.
      if (n == "pkg_check_modules") return Flow::kStop;
    }
    if (!found) {
      if (imported) in.MarkTargetAbsent("PkgConfig::" + prefix);
      return Flow::kNormal;
    }
  }
  if (imported && !in.targets().Find("PkgConfig::" + prefix)) {
    CMakeTarget t;
    t.name = "PkgConfig::" + prefix;
    t.type = "INTERFACE";
    t.imported = true;
    t.defined_at = in.rec().UserSite();
    t.policy_version = in.policy_versions().back();
    in.targets().Add(std::move(t));
  }
  return Flow::kNormal;
}

Flow ExecuteProcessCommand(Interpreter& in, const std::string&, const Args& a) {
  std::string command;
  for (size_t k = 0; k < a.size(); ++k) {
    const std::string& t = a[k].value.text;
    if (t.ends_with("_VARIABLE") && k + 1 < a.size())
      in.Set(a[k + 1].value.text, in.UnknownResult("execute_process"));
    if ((t == "OUTPUT_FILE" || t == "ERROR_FILE") && k + 1 < a.size() && a[k + 1].value.known)
      in.NoteConsumerFile(a[k + 1].value.text);
    if (t == "COMMAND" && k + 1 < a.size() && command.empty())
      command = a[k + 1].value.known ? a[k + 1].value.text : "<" + a[k + 1].value.why + ">";
  }
  in.Skip("execute_process", "never run (" + command + "); its output is unknown");
  return Flow::kNormal;
}

namespace {

// find_library() and find_path()'s arguments (cmFindBase::ParseArguments): the old form
// <VAR> <name> [<path>...] when no keyword is given, else names, HINTS, PATHS and
// PATH_SUFFIXES. nullopt when the search cannot be decided here: a value not known, an ENV
// entry (the consumer's environment), a VALIDATOR function.
std::optional<FileSearch> ReadFileSearch(Interpreter& in, const std::string& n, const Args& a,
                                         bool* required) {
  static const std::set<std::string> kLists{"NAMES", "HINTS", "PATHS", "PATH_SUFFIXES", "DOC"};
  FileSearch s;
  s.library = n == "find_library";
  const bool keywords = std::any_of(a.begin() + 1, a.end(), [](const Arg& x) {
    return kLists.count(x.value.text) || x.value.text.starts_with("NO_") || x.value.text == "REQUIRED";
  });
  bool no_system = false, no_environment = false;
  std::vector<std::string>* into = &s.names;
  for (size_t k = 1; k < a.size(); ++k) {
    const std::string& t = a[k].value.text;
    if (!a[k].value.known || t == "ENV" || t == "VALIDATOR") return std::nullopt;
    if (!keywords) {
      if (k == 1)
        s.names.push_back(t);
      else
        s.paths.push_back(SearchPathEntry(t));
    } else if (t == "NAMES") {
      into = &s.names;
    } else if (t == "HINTS" || t == "PATHS" || t == "PATH_SUFFIXES") {
      into = t == "HINTS" ? &s.hints : t == "PATHS" ? &s.paths : &s.suffixes;
    } else if (t == "DOC") {
      into = nullptr;
    } else if (t.starts_with("NO_") || t == "REQUIRED" || t == "NAMES_PER_DIR" ||
               t.ends_with("_FIND_ROOT_PATH") || t == "CMAKE_FIND_ROOT_PATH_BOTH") {
      s.default_path &= t != "NO_DEFAULT_PATH";
      no_system |= t == "NO_CMAKE_SYSTEM_PATH";
      no_environment |= t == "NO_SYSTEM_ENVIRONMENT_PATH";
      *required |= t == "REQUIRED";
    } else if (into) {
      for (std::string& item : SplitList(t))
        into->push_back(into == &s.hints || into == &s.paths ? SearchPathEntry(std::move(item))
                                                             : std::move(item));
    }
  }
  s.default_path &= !(no_system && no_environment);
  if (const CMakeValue* p = in.Get("CMAKE_PREFIX_PATH")) {
    if (!p->known) return std::nullopt;
    s.prefix_path = SplitList(p->text);
  }
  return s;
}

}  // namespace

// find_program, find_library, find_path, find_file: a result already found is kept. On a
// whole installed system, find_library() and find_path() look where CMake would (SearchWorld):
// a library or header found nowhere is <VAR>-NOTFOUND, as a Find module of the package or of
// CMake then learns (FindCups without libcups.so); REQUIRED fails then, as in CMake 3.18+.
Flow FindFileCommand(Interpreter& in, const std::string& n, const Args& a) {
  if (a.empty() || !a[0].value.known) return Flow::kNormal;
  const std::string& var = a[0].value.text;
  const CMakeValue* old = in.Get(var);
  if (old && !IsFalseConstant(old->text)) return Flow::kNormal;
  bool required = false;
  std::optional<FileSearch> s;
  if (in.files().has_base() && (n == "find_library" || n == "find_path" || n == "find_file"))
    s = ReadFileSearch(in, n, a, &required);
  // find_file() where only its own HINTS and PATHS are searched (atlas_ecmwf_io's Targets file,
  // NO_DEFAULT_PATH): the first name found, each name in every directory before the next name.
  if (!s || s->names.empty() || (n == "find_file" && s->default_path)) {
    in.Set(var, in.UnknownResult(n));
    return Flow::kNormal;
  }
  // Each file asked of the world costs what binding an argument does: a loop of searches for
  // new names stops at the work budget instead of asking for millions of paths.
  size_t probes = 0;
  std::string found;
  if (n != "find_file") {
    found = SearchWorld(*s, in.files(), &probes);
  } else {
    FileSearch one = *s;
    for (const std::string& name : s->names) {
      one.names = {name};
      if (std::string dir = SearchWorld(one, in.files(), &probes); !dir.empty()) {
        found = dir + "/" + name;
        break;
      }
    }
  }
  in.Charge(probes * kArgumentWork);
  in.Set(var, {found.empty() ? var + "-NOTFOUND" : found});
  if (found.empty() && required) {
    in.Fail("Could not find " + var + " using the following names: " + JoinList(s->names));
    return Flow::kStop;
  }
  return Flow::kNormal;
}

Flow TryCompileCommand(Interpreter& in, const std::string& n, const Args& a) {
  if (!a.empty()) in.Set(a[0].value.text, in.UnknownResult(n));
  if (n == "try_run" && a.size() > 1) in.Set(a[1].value.text, in.UnknownResult(n));
  in.Skip(n, "never run; its result is unknown");
  return Flow::kNormal;
}

// check_cxx_compiler_flag(<flag> <var>), check_include_file(<file> <var>), ...: probes of
// the consumer's toolchain or system; the result variable is the last plain argument
// before any options.
Flow ProbeCommand(Interpreter& in, const std::string& n, const Args& a) {
  // Where each module's documented signature puts the result variable.
  size_t at = 1;
  if (n == "check_symbol_exists" || n == "check_cxx_symbol_exists" || n == "check_compiler_flag" ||
      n == "check_source_compiles" || n == "check_source_runs" || n == "check_linker_flag")
    at = 2;
  else if (n == "check_library_exists")
    at = 3;  // check_library_exists(<library> <function> <location> <variable>)
  if (n == "check_language" && !a.empty())
    in.Set("CMAKE_" + a[0].value.text + "_COMPILER", in.UnknownResult(n));
  else if (a.size() > at)
    in.Set(a[at].value.text, in.UnknownResult(n));
  return Flow::kNormal;
}

// processorcount, get_directory_property, get_cmake_property, ...: <var> is unknown here.
Flow UnknownResultCommand(Interpreter& in, const std::string& n, const Args& a) {
  if (!a.empty()) in.Set(a[0].value.text, in.UnknownResult(n));
  return Flow::kNormal;
}

// FPHSA's HANDLE_COMPONENTS: a component asked for (<Name>_FIND_COMPONENTS) whose
// <Name>_<comp>_FOUND is false fails the package when it is required
// (<Name>_FIND_REQUIRED_<comp>); an optional one does not. ECM's FindXCB sets each
// component's from the world's pkg-config, find_path() and find_library() answers, and
// Qt6XcbQpaPrivate's find_dependency(XCB COMPONENTS ICCCM) fails without xcb-icccm.
Tri FphsaComponents(Interpreter& in, const std::string& name, bool unset_is_false) {
  const CMakeValue* asked = in.Get(name + "_FIND_COMPONENTS");
  if (!asked) return Tri::kTrue;
  if (!asked->known || asked->maybe_unset) return Tri::kUnknown;
  // if(<variable>) of a variable, `unset` when it is not set.
  auto truth = [&](const std::string& variable, Tri unset) {
    const CMakeValue* v = in.Get(variable);
    return !v                            ? unset
           : !v->known || v->maybe_unset ? Tri::kUnknown
           : IsFalseConstant(v->text)    ? Tri::kFalse
                                         : Tri::kTrue;
  };
  Tri found = Tri::kTrue;
  for (const std::string& comp : SplitList(asked->text)) {
    const Tri has = truth(name + "_" + comp + "_FOUND", unset_is_false ? Tri::kFalse : Tri::kUnknown);
    if (has == Tri::kTrue) continue;
    const Tri needed = truth(name + "_FIND_REQUIRED_" + comp, Tri::kFalse);
    if (needed == Tri::kFalse) continue;
    if (has == Tri::kFalse && needed == Tri::kTrue) return Tri::kFalse;
    found = Tri::kUnknown;
  }
  return found;
}

// FPHSA's version check: only where find_package() asked for a version. A VERSION_VAR
// defined but empty fails it; one left unset, or no VERSION_VAR, passes it; a known version
// is compared as find_package_check_version() does for a minimum (an exact version or a
// range is not modelled: unknown).
Tri FphsaVersion(Interpreter& in, const std::string& name, const std::string& version_var) {
  const CMakeValue* asked = in.Get(name + "_FIND_VERSION");
  if (!asked) return Tri::kTrue;
  if (version_var.empty()) return Tri::kTrue;
  const CMakeValue* has = in.Get(version_var);
  if (!has) return Tri::kTrue;
  const CMakeValue* exact = in.Get(name + "_FIND_VERSION_EXACT");
  const CMakeValue* range = in.Get(name + "_FIND_VERSION_RANGE");
  if (!asked->known || asked->maybe_unset || !has->known || has->maybe_unset || range ||
      (exact && (!exact->known || !IsFalseConstant(exact->text))))
    return Tri::kUnknown;
  if (has->text.empty()) return Tri::kFalse;
  return CompareVersions(has->text, asked->text) < 0 ? Tri::kFalse : Tri::kTrue;
}

// Sets <Name>_FOUND and <NAME>_FOUND, as FindPackageHandleStandardArgs.cmake does (a Find
// module tests either: VTK's FindFreetype.cmake defines Freetype::Freetype under
// if(Freetype_FOUND)). FIND_PACKAGE_HANDLE_STANDARD_ARGS of CMake 3.25: the required
// variables are REQUIRED_VARS's, or in the old form every argument after the message, and
// one that is unset or false fails it (if(NOT ${var})). Most come from find_library() and
// the like, whose results are the consumer's: unknown here, and so is the result. One
// decided false decides it false (Qt's FindWrapSystemOpenXR.cmake requires a variable set
// only when find_package(OpenXR) found it). Found only when each is decided true and so
// are the components and version checks that follow (FphsaComponents, FphsaVersion).
Flow HandleStandardArgsCommand(Interpreter& in, const std::string&, const Args& a) {
  if (a.size() < 2 || !a[0].value.known) return Flow::kNormal;
  const std::string& name = a[0].value.text;
  static const std::set<std::string> kKeywords{
      "CONFIG_MODE",          "HANDLE_COMPONENTS", "NAME_MISMATCHED",
      "HANDLE_VERSION_RANGE", "FAIL_MESSAGE",      "REASON_FAILURE_MESSAGE",
      "VERSION_VAR",          "FOUND_VAR",         "REQUIRED_VARS"};
  std::vector<const Arg*> required;
  bool decided = true, components = false;
  std::string version_var;
  if (!kKeywords.count(a[1].value.text)) {
    for (size_t k = 2; k < a.size(); ++k) required.push_back(&a[k]);
  } else {
    std::string collecting;
    for (size_t k = 1; k < a.size(); ++k) {
      const std::string& t = a[k].value.text;
      if (kKeywords.count(t)) {
        collecting = t;
        components |= t == "HANDLE_COMPONENTS";
        if (t == "CONFIG_MODE") decided = false;  // <Name>_CONFIG and its version: the config's
      } else if (collecting == "REQUIRED_VARS") {
        required.push_back(&a[k]);
      } else if (collecting == "VERSION_VAR") {
        version_var = a[k].value.known ? t : "";
        decided &= a[k].value.known;
      } else if (collecting != "FAIL_MESSAGE" && collecting != "REASON_FAILURE_MESSAGE" &&
                 collecting != "FOUND_VAR") {
        decided = false;  // an argument FPHSA would refuse
      }
    }
  }
  // A variable left unset is false, unless a command not evaluated here might have set it.
  const std::vector<CMakeSkipped>& skipped = in.rec().Out().skipped;
  const bool unset_is_false = std::none_of(skipped.begin(), skipped.end(), [](const CMakeSkipped& s) {
    return s.reason == "a command rocm-audit does not evaluate" || s.command == "include" ||
           s.command == "cmake_language";
  });
  Tri found = decided && !required.empty() ? Tri::kTrue : Tri::kUnknown;
  for (const Arg* r : required) {
    const CMakeValue* v = r->value.known ? in.Get(r->value.text) : nullptr;
    if (r->value.known && !v && unset_is_false) {
      found = Tri::kFalse;
      break;
    }
    if (!v || !v->known || v->maybe_unset) {
      if (found == Tri::kTrue) found = Tri::kUnknown;
      continue;
    }
    if (IsFalseConstant(v->text)) {
      found = Tri::kFalse;
      break;
    }
  }
  if (found != Tri::kFalse && components) found = TriAnd(found, FphsaComponents(in, name, unset_is_false));
  if (found != Tri::kFalse) found = TriAnd(found, FphsaVersion(in, name, version_var));
  const CMakeValue result = found == Tri::kUnknown ? CMakeValue::Unknown("find_package_handle_standard_args")
                                                   : CMakeValue{found == Tri::kTrue ? "TRUE" : "FALSE"};
  in.Set(name + "_FOUND", result);
  in.Set(ToUpper(name) + "_FOUND", result);
  return Flow::kNormal;
}

// select_library_configurations(<base>) (SelectLibraryConfigurations.cmake, which FindZLIB,
// FindPNG, FindTIFF and 22 more of CMake's Find modules call after their find_library()s):
// <base>_LIBRARY and <base>_LIBRARIES are the release library, else the debug one, else
// <base>_LIBRARY-NOTFOUND. With both found and different, the module links "optimized" and
// "debug" items or one of them by the consumer's build type: not known here.
Flow SelectLibraryConfigurationsCommand(Interpreter& in, const std::string&, const Args& a) {
  if (a.empty() || !a[0].value.known) return Flow::kNormal;
  const std::string& base = a[0].value.text;
  auto library = [&](const std::string& variable) {
    const CMakeValue* v = in.Get(variable);
    if (v && (!v->known || v->maybe_unset || !IsFalseConstant(v->text))) return *v;
    in.Set(variable, {variable + "-NOTFOUND"});
    return CMakeValue{""};
  };
  const CMakeValue release = library(base + "_LIBRARY_RELEASE");
  const CMakeValue debug = library(base + "_LIBRARY_DEBUG");
  CMakeValue chosen;
  if (!release.known || !debug.known || release.maybe_unset || debug.maybe_unset)
    chosen = CMakeValue::Unknown(!release.known ? release.why
                                 : debug.known  ? "select_library_configurations"
                                                : debug.why);
  else if (!release.text.empty() && !debug.text.empty() && release.text != debug.text)
    chosen = CMakeValue::Unknown("select_library_configurations: the consumer's build type");
  else if (!release.text.empty() || !debug.text.empty())
    chosen = {release.text.empty() ? debug.text : release.text};
  else
    chosen = {base + "_LIBRARY-NOTFOUND"};
  in.Set(base + "_LIBRARY", chosen);
  in.Set(base + "_LIBRARIES", chosen);
  return Flow::kNormal;
}

// enable_language, add_custom_target, install, configure_file, ...: recorded.
Flow ChangesBuildCommand(Interpreter& in, const std::string& n, const Args& a) {
  // configure_file(<input> <output>): <output> relative to CMAKE_CURRENT_BINARY_DIR.
  if (n == "configure_file" && a.size() >= 2 && a[1].value.known) {
    const CMakeValue* dir = in.Get("CMAKE_CURRENT_BINARY_DIR");
    const std::string& out = a[1].value.text;
    if (!out.starts_with("/") && dir && dir->known)
      in.NoteConsumerFile(dir->text + "/" + out);
    else
      in.NoteConsumerFile(out);
  }
  // enable_language(<lang>...) loads each language's compiler for the rest of the configure.
  if (n == "enable_language")
    for (const Arg& x : a)
      if (x.value.known && x.value.text != "OPTIONAL")
        in.Set("CMAKE_" + x.value.text + "_COMPILER_LOADED", {"1"});
  in.Skip(n, "changes the consumer's build; not evaluated");
  return Flow::kNormal;
}

// No effect on the targets, files or variables a consumer gets from the package.
Flow NoEffectCommand(Interpreter&, const std::string&, const Args&) { return Flow::kNormal; }

}  // namespace rocm_audit
