#include "audit/cmake/package_config.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <set>
#include <utility>

#include "audit/cmake/cmake_modules.h"
#include "audit/cmake/consumer_dirs.h"
#include "audit/cmake/found_false.h"
#include "audit/cmake/lists.h"
#include "audit/fs/path.h"

namespace rocm_audit {
namespace {

// Directories find_package() treats as "lib/<arch>|lib*|share" below a prefix.
bool IsLibOrShare(std::string_view c) { return c == "share" || c.starts_with("lib"); }

// The variables find_package() sets before it loads a config or version file, and the
// built-in ones a configure on Debian 12's CMake has. The consumer's toolchain is unknown.
void DefineFindPackageVariables(CMakeEvaluator& e, const std::string& name, const std::string& config) {
  const std::string version(kCMakeVersion);
  std::string as_list = version;
  std::replace(as_list.begin(), as_list.end(), '.', ';');
  const std::vector<std::string> parts = SplitList(as_list);
  e.Define("CMAKE_VERSION", version);
  e.Define("CMAKE_MAJOR_VERSION", parts.size() > 0 ? parts[0] : "3");
  e.Define("CMAKE_MINOR_VERSION", parts.size() > 1 ? parts[1] : "0");
  e.Define("CMAKE_PATCH_VERSION", parts.size() > 2 ? parts[2] : "0");
  e.Define("CMAKE_ROOT", std::string(kCMakeRoot));
  e.Define("CMAKE_COMMAND", "/usr/bin/cmake");
  e.Define("UNIX", "1");
  e.Define("LINUX", "1");
  e.Define("CMAKE_HOST_UNIX", "1");
  e.Define("CMAKE_SYSTEM_NAME", "Linux");
  e.Define("CMAKE_HOST_SYSTEM_NAME", "Linux");
  e.Define("CMAKE_SYSTEM_PROCESSOR", "x86_64");
  e.Define("CMAKE_HOST_SYSTEM_PROCESSOR", "x86_64");
  e.Define("CMAKE_SIZEOF_VOID_P", "8");
  e.Define("CMAKE_LIBRARY_ARCHITECTURE", std::string(kLibraryArchitecture));
  e.Define("CMAKE_SHARED_LIBRARY_PREFIX", "lib");
  e.Define("CMAKE_SHARED_LIBRARY_SUFFIX", ".so");
  e.Define("CMAKE_STATIC_LIBRARY_PREFIX", "lib");
  e.Define("CMAKE_STATIC_LIBRARY_SUFFIX", ".a");
  e.Define("CMAKE_INSTALL_PREFIX", "/usr/local");
  for (const char* v : {"CMAKE_BINARY_DIR", "CMAKE_CURRENT_BINARY_DIR", "PROJECT_BINARY_DIR"})
    e.Define(v, std::string(kConsumerBinaryDir));
  for (const char* v : {"CMAKE_SOURCE_DIR", "CMAKE_CURRENT_SOURCE_DIR", "PROJECT_SOURCE_DIR"})
    e.Define(v, std::string(kConsumerSourceDir));
  e.Define("CMAKE_FIND_PACKAGE_NAME", name);
  e.Define(name + "_FIND_REQUIRED", "1");
  e.Define(name + "_CONFIG", config);
  e.Define(name + "_DIR", DirName(config));
}

// The version file find_package() reads for `config`: <config>-version.cmake or
// <config>Version.cmake; "" when there is none.
std::string VersionFileOf(const std::string& config, const InstalledFiles& files) {
  const std::string stem = config.substr(0, config.size() - 6);
  for (const std::string& v : {stem + "-version.cmake", stem + "Version.cmake"})
    if (files.Exists(v) == Tri::kTrue) return v;
  return {};
}

// PACKAGE_FIND_VERSION<suffix> and its _MAJOR, _MINOR, _PATCH, _TWEAK and _COUNT, as
// find_package() sets them: absent parts are 0.
void DefineVersionParts(CMakeEvaluator& e, const std::string& variable, const std::string& version) {
  e.Define(variable, version);
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= version.size() && parts.size() < 4) {
    size_t dot = version.find('.', start);
    std::string part = version.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos) break;
    parts.push_back(std::to_string(std::stoull(part.substr(0, 9))));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  const char* names[] = {"_MAJOR", "_MINOR", "_PATCH", "_TWEAK"};
  for (size_t i = 0; i < 4; ++i) e.Define(variable + names[i], i < parts.size() ? parts[i] : "0");
  e.Define(variable + "_COUNT", std::to_string(parts.size()));
}

// Evaluates a version file with what find_package(<name> <version>) sets for it.
CMakeEvaluation EvaluateVersionFile(const std::string& name, const std::string& config,
                                    const std::string& file, const std::string& version,
                                    const InstalledFiles& files, const EvaluatorLimits& limits) {
  CMakeEvaluator e(files, limits);
  DefineFindPackageVariables(e, name, config);
  e.Define("PACKAGE_FIND_NAME", name);
  e.Define("PACKAGE_FIND_VERSION_COMPLETE", version);
  size_t range = version.find("...");
  if (range == std::string::npos) {
    // Set without a version too (cmFindPackageCommand::CheckVersionFile): "", and each part
    // 0. gftl-shared's version file tests PACKAGE_FIND_VERSION_MAJOR EQUAL 0 for "any".
    DefineVersionParts(e, "PACKAGE_FIND_VERSION", version);
  } else {
    std::string min = version.substr(0, range), max = version.substr(range + 3);
    bool exclude = max.starts_with("<");
    if (exclude) max.erase(0, 1);
    e.Define("PACKAGE_FIND_VERSION_RANGE", version);
    e.Define("PACKAGE_FIND_VERSION_RANGE_MIN", "INCLUDE");
    e.Define("PACKAGE_FIND_VERSION_RANGE_MAX", exclude ? "EXCLUDE" : "INCLUDE");
    DefineVersionParts(e, "PACKAGE_FIND_VERSION", min);
    DefineVersionParts(e, "PACKAGE_FIND_VERSION_MIN", min);
    DefineVersionParts(e, "PACKAGE_FIND_VERSION_MAX", max);
  }
  e.Run(file);
  return e.Take();
}

// A variable of an evaluation's top scope: nullopt when unset or not known.
std::optional<std::string> Known(const CMakeEvaluation& e, const std::string& name) {
  const CMakeValue* v = e.variables.Find(name);
  if (!v || !v->known) return std::nullopt;
  return v->text;
}

// One evaluation of `config` as find_package(<name> [COMPONENTS <components>]
// [OPTIONAL_COMPONENTS <optional>] CONFIG REQUIRED) loads it, `components` a list;
// `asked`: an if(TARGET) was undecided for want of dependency targets.
CMakeEvaluation EvaluateConfig(const std::string& name, const std::string& config,
                               const InstalledFiles& files, const EvaluatorLimits& limits,
                               DependencyResolver* resolver, const std::string& components,
                               const std::string& version, bool* asked,
                               const std::vector<std::string>& optional = {},
                               const GivenVariables& given = {}) {
  auto evaluate = [&](const std::set<std::string>& own, DependencyResolver* answers) {
    CMakeEvaluator e(files, limits);
    DefineFindPackageVariables(e, name, config);
    for (const auto& [variable, value] : given.variables) e.DefineValue(variable, value);
    if (given.commands) e.ImportCommands(*given.commands);
    if (!given.targets.empty()) e.SetCallerTargets({given.targets.begin(), given.targets.end()});
    // find_package() stores the version its version file gave before it loads the config.
    for (auto& [variable, value] : FoundVersionVariables(name + "_VERSION", version))
      e.Define(variable, value);
    std::vector<std::string> all = SplitList(components);
    for (const std::string& c : all) e.Define(name + "_FIND_REQUIRED_" + c, "1");
    for (const std::string& c : optional) e.Define(name + "_FIND_REQUIRED_" + c, "0");
    all.insert(all.end(), optional.begin(), optional.end());
    // Defined when none is asked too, empty (cmFindPackageCommand::SetModuleVariables):
    // Drogon's FindFilesystem asks for its Final component when
    // `Filesystem_FIND_COMPONENTS STREQUAL ""`, which an unset variable's name is not.
    e.Define(name + "_FIND_COMPONENTS", JoinList(all));
    // The consumer's languages are those of a plain project(): C and C++, CMake's default,
    // as the targets FindMPI and FindOpenMP define are read (DependencyLocator). So
    // CMAKE_C_COMPILER_LOADED and CMAKE_CXX_COMPILER_LOADED are set, another language's unset
    // until the config's enable_language() (adios2 adds a component per loaded language and
    // requires it). The compilers themselves are unknown (JUCE's config stops without
    // CMAKE_C_COMPILE_OBJECT, the rule enable_language(C) sets).
    for (std::string compiler : {"C", "CXX", "HIP", "Fortran"})
      for (std::string suffix : {"_COMPILER", "_COMPILER_ID", "_COMPILER_VERSION", "_COMPILE_OBJECT"})
        e.DefineUnknown("CMAKE_" + compiler + suffix, "the consumer's " + compiler + " compiler");
    e.Define("CMAKE_C_COMPILER_LOADED", "1");
    e.Define("CMAKE_CXX_COMPILER_LOADED", "1");
    e.SetOwnTargets(own);
    e.SetResolver(answers);
    e.Run(config);
    *asked = e.asked_dependency_targets();
    return e.Take();
  };
  CMakeEvaluation result = evaluate({}, resolver);
  if (*asked) {
    // Generated Targets files test whether their own targets exist before defining them;
    // once the package's own targets are known, those tests are decided (a fresh consumer
    // has none of them).
    std::set<std::string> own;
    for (const CMakeTarget& t : result.targets) own.insert(t.name);
    // A config that returned before its Targets file (a dependency not found) defined none:
    // which they are is learnt from an evaluation that takes every dependency as found.
    if (own.empty() && resolver) {
      bool ignored = false;
      for (const CMakeTarget& t : EvaluateConfig(name, config, files, limits, nullptr, components, version,
                                                 &ignored, optional, given)
                                      .targets)
        own.insert(t.name);
    }
    if (!own.empty()) result = evaluate(own, resolver);
  }
  return result;
}

// find_package() looks at <Name>_FOUND after the config: one set false was not found. The
// files the config looked for with include(OPTIONAL) and did not find are named: that is
// how generated configs come to set it (RESULT_VARIABLE, then a test of it).
void AddFoundFalse(const std::string& name, const std::string& config, const std::string& component,
                   CMakeEvaluation& e) {
  if (e.stopped) return;
  if (!LeavesFoundFalse(e.variables, name)) return;
  std::string message = "the config sets " + name + "_FOUND to FALSE";
  if (const CMakeValue* m = e.variables.Find(name + "_NOT_FOUND_MESSAGE"))
    message += ": " + (m->known ? m->text : "a reason not known here");
  for (const std::string& answer : e.world_answers) message += " (" + answer + ")";
  CMakeFailure f = CMakeFailure::Of(message, {config, 0});
  f.asked_component = component;
  // Those whose RESULT_VARIABLE still says NOTFOUND when the config ends are what it tested;
  // without one, every optional include that found nothing is named.
  auto missed = [&](const CMakeReference& r, bool tested) {
    if (!r.optional || r.exists || !r.undecided.empty() || r.via != "include") return false;
    if (!tested) return true;
    const CMakeValue* v = e.variables.Find(r.result_variable);
    return v && v->known && v->text.ends_with("-NOTFOUND");
  };
  const bool tested = std::any_of(e.references.begin(), e.references.end(),
                                  [&](const CMakeReference& r) { return missed(r, true); });
  for (const CMakeReference& r : e.references)
    if (missed(r, tested)) f.missing_files.push_back(r.path);
  if (!f.missing_files.empty()) {
    const PathText said =
        f.MessageText() +
        (f.missing_files.size() == 1 ? "; the file it did not find: " : "; the files it did not find: ") +
        HostPaths(f.missing_files, ", ");
    f.message = said.text();
    f.message_paths = said.paths();
    // With one such file, the include that found nothing is where it went wrong.
    if (f.missing_files.size() == 1)
      for (const CMakeReference& r : e.references)
        if (r.path == f.missing_files.front()) f.site = r.site;
  }
  e.failures.push_back(std::move(f));
}

// `lower` (a variable's name, lower case) has "components" as one of its '_'-separated words:
// VTK_AVAILABLE_COMPONENTS, _TBB_COMPONENTS_PROVIDED, pcl_all_components. A name that holds
// it inside a word is a package's own (Qt6DesignerComponentsPrivate_LIBRARIES, whose value
// is no component list: taken as one, its targets offered 32 components to evaluate).
bool NamesComponents(std::string_view lower) {
  for (size_t start = 0; start <= lower.size();) {
    const size_t end = std::min(lower.find('_', start), lower.size());
    if (lower.substr(start, end - start) == "components") return true;
    start = end + 1;
  }
  return false;
}

// Components a consumer can ask for: the items of the config's lists of components
// (composable_kernel's _composable_kernel_supported_components, <Name>_COMPONENTS, ...) and
// the <Name>_<component>_FOUND it sets itself. Bounded: each is one more evaluation. Not
// lists: one item a loop set (PCL's `pcl_component`, SuiteSparse's `component_header`), a count
// (PCL_NB_COMPONENTS, the <Dep>_VERSION_COMPONENTS find_package() sets), what it asks of a
// dependency (PCL_VTK_COMPONENTS: VTK's).
std::vector<std::string> OfferedComponents(const std::string& name, const CMakeEvaluation& e) {
  constexpr size_t kMaxComponents = 32;
  std::vector<std::string> out;
  auto offer = [&](const std::string& c) {
    const bool word = !c.empty() && c.size() <= 64 && std::all_of(c.begin(), c.end(), [](char ch) {
      return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-' || ch == '.' || ch == '+';
    });
    const bool number =
        std::all_of(c.begin(), c.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); });
    // <VAR>-NOTFOUND, what get_target_property() leaves for a property not set (ignition's
    // ign_all_components), names no component.
    if (word && !number && !c.ends_with("-NOTFOUND") && out.size() < kMaxComponents &&
        std::find(out.begin(), out.end(), c) == out.end())
      out.push_back(c);
  };
  const std::string find_prefix = name + "_FIND_";
  // A dependency's own variables (<Dep>_...) are in the scope too, find_package() having run
  // its config there: SuiteSparse's components are not Ceres's, nor VTK's PCL's.
  std::vector<std::string> dependencies;
  for (const CMakeDependency& d : e.dependencies)
    if (ToLower(d.name) != ToLower(name)) dependencies.push_back(ToLower(d.name) + "_");
  auto of_a_dependency = [&](const std::string& lower) {
    return std::any_of(dependencies.begin(), dependencies.end(),
                       [&](const std::string& prefix) { return lower.starts_with(prefix); });
  };
  auto asked_of_a_dependency = [&](const std::string& lower) {
    return std::any_of(dependencies.begin(), dependencies.end(), [&](const std::string& prefix) {
      return lower.find("_" + prefix) != std::string::npos;
    });
  };
  // The variables that offer any, in byte order of their names: the first kMaxComponents.
  struct Offering {
    const std::string* variable;
    const CMakeValue* value;
    bool lists, found;
  };
  std::vector<Offering> offering;
  const std::string own_prefix = name + "_";
  // Most of a scope's ~1500 variables name no components: those are passed over before a
  // lower-case copy of the name is made.
  e.variables.ForEach([&](const std::string& variable, const CMakeValue& value) {
    if (!value.known || variable.starts_with(find_prefix)) return;
    const bool may_list = ContainsNoCase(variable, "components");
    const bool found = variable.starts_with(own_prefix) && variable.ends_with("_FOUND") &&
                       variable.size() > name.size() + 7 && IsTrueConstant(value.text);
    if (!may_list && !found) return;
    const std::string lower = ToLower(variable);
    if (of_a_dependency(lower)) return;
    const bool lists = may_list && NamesComponents(lower) && !asked_of_a_dependency(lower);
    if (lists || found) offering.push_back({&variable, &value, lists, found});
  });
  std::sort(offering.begin(), offering.end(),
            [](const Offering& a, const Offering& b) { return *a.variable < *b.variable; });
  for (const Offering& o : offering) {
    if (o.lists)
      for (const std::string& c : SplitList(o.value->text)) offer(c);
    if (o.found) offer(o.variable->substr(name.size() + 1, o.variable->size() - name.size() - 7));
  }
  return out;
}

// Adds to the plain evaluation what asking for each component adds to it, each marked
// with the component; a file, target or dependency several components add is marked with
// the first. Sets by path, target name, dependency and failure keep merging linear (a scan
// of what is already there for each item would be quadratic in the references).
class ComponentMerger {
 public:
  explicit ComponentMerger(CMakeEvaluation& base) : base_(base) {
    for (const CMakeReference& r : base.references) paths_.insert(r.path);
    for (const CMakeTarget& t : base.targets) targets_.insert(t.name);
    for (const CMakeDependency& d : base.dependencies) dependencies_.insert(DependencyKey(d));
    for (const CMakeFailure& f : base.failures) failures_.insert(FailureKey(f, ""));
  }

  void Merge(CMakeEvaluation&& with, const std::string& component) {
    for (CMakeReference& r : with.references) {
      if (!paths_.insert(r.path).second) continue;
      if (r.component.empty()) r.component = component;
      r.asked_component = component;
      base_.references.push_back(std::move(r));
    }
    for (CMakeTarget& t : with.targets) {
      if (!targets_.insert(t.name).second) continue;
      t.asked_component = component;
      base_.targets.push_back(std::move(t));
    }
    for (CMakeDependency& d : with.dependencies) {
      if (!dependencies_.insert(DependencyKey(d)).second) continue;
      d.asked_component = component;
      base_.dependencies.push_back(std::move(d));
    }
    base_.unset_in_conditions.merge(with.unset_in_conditions);
    base_.absent_targets_tested.merge(with.absent_targets_tested);
    // A failure the plain consumer meets too is its; each component that fails anew says so.
    for (CMakeFailure& f : with.failures) {
      if (failures_.count(FailureKey(f, "")) || !failures_.insert(FailureKey(f, component)).second) continue;
      f.asked_component = component;
      base_.failures.push_back(std::move(f));
    }
  }

 private:
  // find_dependency(X 2.0) asked by a component is judged again even when X was asked before.
  static std::string DependencyKey(const CMakeDependency& d) {
    return d.name + '\n' + d.version + (d.exact ? "\nEXACT" : "");
  }
  static std::string FailureKey(const CMakeFailure& f, const std::string& component) {
    return f.message + '\n' + f.site.file.str() + ':' + std::to_string(f.site.line) + '\n' + component;
  }

  CMakeEvaluation& base_;
  std::set<std::string> paths_, targets_, dependencies_, failures_;
};

}  // namespace

VersionVerdict CheckVersionFile(const std::string& name, const std::string& config,
                                const std::string& version, bool exact, const InstalledFiles& files,
                                const EvaluatorLimits& limits) {
  VersionVerdict v;
  v.file = VersionFileOf(config, files);
  if (version.empty()) return v;
  if (v.file.empty()) {
    v.accepted = false;
    v.version = "unknown";
    const std::string stem(BaseName(config.substr(0, config.size() - 6)));
    v.why = "it has no version file, " + stem + "Version.cmake or " + stem +
            "-version.cmake; find_package() takes it for no version";
    return v;
  }
  CMakeEvaluation result = EvaluateVersionFile(name, config, v.file, version, files, limits);
  v.version = Known(result, "PACKAGE_VERSION").value_or("");
  const auto unknown = [&](const char* var) {
    const CMakeValue* v = result.variables.Find(var);
    return v && !v->known;
  };
  if (unknown("PACKAGE_VERSION_UNSUITABLE") ||
      unknown(exact ? "PACKAGE_VERSION_EXACT" : "PACKAGE_VERSION_COMPATIBLE"))
    return v;
  if (IsTrueConstant(Known(result, "PACKAGE_VERSION_UNSUITABLE").value_or(""))) {
    v.accepted = false;
    v.why = "its version file declares it unsuitable (PACKAGE_VERSION_UNSUITABLE)";
  } else if (exact && !IsTrueConstant(Known(result, "PACKAGE_VERSION_EXACT").value_or(""))) {
    v.accepted = false;
    v.why =
        "its version file does not call " + (v.version.empty() ? "it" : v.version) + " exactly " + version;
  } else if (!exact && !IsTrueConstant(Known(result, "PACKAGE_VERSION_COMPATIBLE").value_or("")) &&
             !IsTrueConstant(Known(result, "PACKAGE_VERSION_EXACT").value_or(""))) {
    // cmFindPackageCommand::CheckVersionFile: an exact version is okay whether or not EXACT
    // was asked (libbson's version file sets only PACKAGE_VERSION_EXACT for 1.23).
    v.accepted = false;
    v.why = "its version file does not call " + (v.version.empty() ? "it" : v.version) + " compatible with " +
            version;
  }
  return v;
}

namespace {

// Words of `text` (runs of letters and digits) equal to `stem` but for case, `stem` first.
std::vector<std::string> Spellings(const std::string& stem, const std::string& text) {
  std::vector<std::string> out{stem};
  const std::string lower = ToLower(stem);
  size_t at = 0;
  while (at < text.size()) {
    size_t end = at;
    while (end < text.size() && std::isalnum(static_cast<unsigned char>(text[end]))) ++end;
    if (end == at) {
      ++at;
      continue;
    }
    std::string word = text.substr(at, end - at);
    if (word.size() == stem.size() && ToLower(word) == lower &&
        std::find(out.begin(), out.end(), word) == out.end())
      out.push_back(word);
    at = end;
  }
  return out;
}

// What a plain consumer meets under `name`: the version file's rejection, decided failures
// and decided includes of files that do not exist.
size_t FailuresUnder(const std::string& name, const std::string& config, const InstalledFiles& files,
                     const EvaluatorLimits& limits) {
  size_t n = 0;
  if (std::string v = VersionFileOf(config, files); !v.empty()) {
    CMakeEvaluation result = EvaluateVersionFile(name, config, v, "", files, limits);
    n += IsTrueConstant(Known(result, "PACKAGE_VERSION_UNSUITABLE").value_or(""));
  }
  bool asked = false;
  CMakeEvaluation e = EvaluateConfig(name, config, files, limits, nullptr, "", "", &asked);
  AddFoundFalse(name, config, "", e);
  for (const CMakeFailure& f : e.failures) n += f.undecided.empty();
  for (const CMakeReference& r : e.references)
    n += r.via == "include" && !r.exists && !r.optional && r.undecided.empty();
  return n;
}

}  // namespace

std::string ConsumerPackageName(const std::string& stem, const std::string& config,
                                const InstalledFiles& files, const EvaluatorLimits& limits) {
  if (!BaseName(config).ends_with("-config.cmake")) return stem;
  std::string text = files.Read(config, limits.max_file_bytes).value_or("");
  if (std::string v = VersionFileOf(config, files); !v.empty())
    text += "\n" + files.Read(v, limits.max_file_bytes).value_or("");
  std::vector<std::string> names = Spellings(stem, text);
  if (names.size() == 1) return stem;
  std::string best = stem;
  size_t fewest = FailuresUnder(stem, config, files, limits);
  for (size_t k = 1; k < names.size() && fewest > 0; ++k) {
    size_t n = FailuresUnder(names[k], config, files, limits);
    if (n < fewest) fewest = n, best = names[k];
  }
  return best;
}

const std::vector<std::string>& PathPrefixes() {
  static const std::vector<std::string> kPrefixes{"/usr/local", "/usr", "/", "/usr/local/games",
                                                  "/usr/games"};
  return kPrefixes;
}

const std::vector<std::string>& SystemPrefixes() {
  static const std::vector<std::string> kPrefixes{"/usr/local", "/usr",     "/",
                                                  "/usr/X11R6", "/usr/pkg", "/opt"};
  return kPrefixes;
}

std::optional<std::string> ConfigPackageName(std::string_view file_name) {
  if (file_name.ends_with("-config.cmake") && file_name.size() > 13)
    return std::string(file_name.substr(0, file_name.size() - 13));
  if (file_name.ends_with("Config.cmake") && file_name.size() > 12)
    return std::string(file_name.substr(0, file_name.size() - 12));
  return std::nullopt;
}

std::string PackagePrefixOf(std::string_view config_dir, std::string_view name) {
  std::vector<std::string_view> c = PathComponents(config_dir);
  auto prefix = [&](size_t keep) {
    std::string out;
    for (size_t i = 0; i < keep; ++i) out += "/" + std::string(c[i]);
    return out.empty() ? std::string("/") : out;
  };
  auto is_name = [&](std::string_view s) { return StartsWithNoCase(s, name); };
  auto is_cmake = [](std::string_view s) { return s == "cmake" || s == "CMake"; };
  const size_t n = c.size();
  // <prefix>/(lib/<arch>|lib*|share)/cmake/<name>*/
  if (n >= 3 && is_name(c[n - 1]) && is_cmake(c[n - 2])) {
    if (n >= 4 && c[n - 4] == "lib" && c[n - 3] == kLibraryArchitecture) return prefix(n - 4);
    if (IsLibOrShare(c[n - 3])) return prefix(n - 3);
  }
  // <prefix>/(lib/<arch>|lib*|share)/<name>*/(cmake|CMake)/
  if (n >= 3 && is_cmake(c[n - 1]) && is_name(c[n - 2])) {
    if (n >= 4 && c[n - 4] == "lib" && c[n - 3] == kLibraryArchitecture) return prefix(n - 4);
    if (IsLibOrShare(c[n - 3])) return prefix(n - 3);
    return prefix(n - 2);  // <prefix>/<name>*/(cmake|CMake)/
  }
  // <prefix>/(lib/<arch>|lib*|share)/<name>*/
  if (n >= 2 && is_name(c[n - 1])) {
    if (n >= 3 && c[n - 3] == "lib" && c[n - 2] == kLibraryArchitecture) return prefix(n - 3);
    if (IsLibOrShare(c[n - 2])) return prefix(n - 2);
    return prefix(n - 1);  // <prefix>/<name>*/
  }
  if (n >= 1 && is_cmake(c[n - 1])) return prefix(n - 1);  // <prefix>/(cmake|CMake)/
  return std::string(config_dir);
}

bool IsFindPackagePosition(std::string_view config_dir, std::string_view name) {
  std::vector<std::string_view> c = PathComponents(config_dir);
  if (c.empty()) return false;
  std::string_view last = c.back();
  if ((last == "cmake" || last == "CMake") && c.size() >= 2 && StartsWithNoCase(c[c.size() - 2], name))
    return true;
  return StartsWithNoCase(last, name) || last == "cmake" || last == "CMake";
}

// cmFindPackageCommand::SearchPrefix (CMake 3.25), in its order: each pattern over every
// directory it names before the next pattern. <name>* is a directory whose name starts with
// <name> in any case, taken in the order the directory lists them (CMAKE_FIND_PACKAGE_SORT_ORDER
// unset: not sorted); (cmake|CMake) is a directory named cmake in any case. lib* is lib alone:
// CMake's Platform/Linux.cmake sets FIND_LIBRARY_USE_LIB64_PATHS FALSE on Debian (lib64 and
// lib32 are there "only for compatibility"), and lib32/libx32 are for 32-bit and x32 targets.
std::optional<std::string> FindConfigUnder(const std::string& prefix, const std::string& name,
                                           const InstalledFiles& files) {
  const std::string lower = ToLower(name);
  auto config_in = [&](const std::string& dir) -> std::optional<std::string> {
    for (const std::string& f : {dir + "/" + name + "Config.cmake", dir + "/" + lower + "-config.cmake"})
      if (files.Exists(f) == Tri::kTrue) return NormalizePath(f);
    return std::nullopt;
  };
  auto listed = [&](const std::string& dir, auto&& keep) {
    std::vector<std::string> out;
    const auto entries = files.GlobKept(dir + "/*", GlobOrder::kAsListed);
    for (const std::string& d : *entries)
      if (keep(BaseName(d)) && files.IsDirectory(d) == Tri::kTrue) out.push_back(d);
    return out;
  };
  auto named = [&](const std::string& dir) {
    std::vector<std::string> out = files.EntriesStartingWith(dir, name);
    std::erase_if(out, [&](const std::string& d) { return files.IsDirectory(d) != Tri::kTrue; });
    return out;
  };
  auto cmake = [&](const std::string& dir) {
    return listed(dir, [](std::string_view base) { return ToLower(base) == "cmake"; });
  };
  auto first = [&](const std::vector<std::string>& dirs) -> std::optional<std::string> {
    for (const std::string& d : dirs)
      if (auto f = config_in(d)) return f;
    return std::nullopt;
  };
  // Each pattern's directories, for each of `dirs`.
  auto each = [](const std::vector<std::string>& dirs, auto&& below) {
    std::vector<std::string> out;
    for (const std::string& d : dirs)
      for (std::string& e : below(d)) out.push_back(std::move(e));
    return out;
  };
  auto common = [&](const std::string& dir) {
    return std::vector<std::string>{dir + "/lib/" + std::string(kLibraryArchitecture), dir + "/lib",
                                    dir + "/share"};
  };
  auto cmake_named = [&](const std::string& d) { return named(d + "/cmake"); };
  auto named_cmake = [&](const std::string& d) { return each(named(d), cmake); };
  // ConfigSearch::ListedAt (dependency_locator.cc) rules a prefix out from listings of the
  // directories whose <name>* entries are read here: a directory added here is listed there.
  // In the order of cmFindPackageCommand::SearchPrefix: PREFIX/, PREFIX/(cmake|CMake)/,
  // PREFIX/<name>*/, PREFIX/<name>*/(cmake|CMake)/, PREFIX/<name>*/(cmake|CMake)/<name>*/;
  // PREFIX/(lib/<arch>|lib|share)/ then cmake/<name>*/, <name>*/, <name>*/(cmake|CMake)/;
  // the same three below PREFIX/<name>*/(lib/<arch>|lib|share)/.
  if (auto f = config_in(prefix)) return f;
  if (auto f = first(cmake(prefix))) return f;
  const std::vector<std::string> pkg = named(prefix);
  if (auto f = first(pkg)) return f;
  const std::vector<std::string> pkg_cmake = each(pkg, cmake);
  if (auto f = first(pkg_cmake)) return f;
  if (auto f = first(each(pkg_cmake, named))) return f;
  for (const std::vector<std::string>& libs : {common(prefix), each(pkg, common)}) {
    if (auto f = first(each(libs, cmake_named))) return f;
    if (auto f = first(each(libs, named))) return f;
    if (auto f = first(each(libs, named_cmake))) return f;
  }
  return std::nullopt;
}

namespace {

// A missing per-component Targets file: does the component's library exist at all?
void FindComponentLibraries(CMakePackage& p, const InstalledFiles& files) {
  for (CMakeReference& r : p.evaluation.references) {
    if (r.exists || r.component.empty()) continue;
    for (const std::string& lib :
         {std::string("/lib/"), "/lib/" + std::string(kLibraryArchitecture) + "/", std::string("/lib64/")})
      for (std::string_view ext : {".a", ".so"}) {
        std::string candidate = NormalizePath(p.prefix + lib + "lib" + r.component + std::string(ext));
        if (r.component_library.empty() && files.Exists(candidate) == Tri::kTrue)
          r.component_library = candidate;
      }
  }
}

// The runtime needs the soname file next to each location (CMake itself never checks).
void AddSonameReferences(CMakePackage& p, const std::string& config, const InstalledFiles& files) {
  for (const CMakeTarget& t : p.evaluation.targets) {
    for (const auto& [property, value] : t.properties) {
      if (!property.starts_with("IMPORTED_SONAME") || !value.known ||
          value.text.find('/') != std::string::npos)
        continue;
      std::string suffix = property.substr(15);
      auto location = t.properties.find("IMPORTED_LOCATION" + suffix);
      if (location == t.properties.end() || !location->second.known) continue;
      std::string path = DirName(location->second.text) + "/" + value.text;
      if (std::any_of(p.evaluation.references.begin(), p.evaluation.references.end(),
                      [&](const CMakeReference& r) { return r.path == path; }))
        continue;
      auto site = t.set_at.find(property);
      CMakeReference r;
      r.path = NormalizePath(path);
      r.via = property;
      r.site = site == t.set_at.end() ? CMakeSite{config, 0} : site->second;
      r.target = t.name;
      r.asked_component = t.asked_component;
      r.exists = files.Exists(r.path) == Tri::kTrue;
      r.checked_by_cmake = false;
      p.evaluation.references.push_back(std::move(r));
    }
  }
}

// A config's version file evaluated as find_package(<Name>) with no version reads it.
struct PlainVersionEvaluation : CMakeEvaluation {
  std::string version_file;
};
/// Null for a config without a version file.
using PlainVersion = std::shared_ptr<const PlainVersionEvaluation>;

// The version file of `config` evaluated as find_package(<name>) with no version reads it,
// null without one: read once for a package, by its passes and by what is assembled of them.
PlainVersion EvaluatePlainVersion(const std::string& name, const std::string& config,
                                  const InstalledFiles& files, const EvaluatorLimits& limits) {
  const std::string v = VersionFileOf(config, files);
  if (v.empty()) return nullptr;
  auto e = std::make_shared<PlainVersionEvaluation>();
  static_cast<CMakeEvaluation&>(*e) = EvaluateVersionFile(name, config, v, "", files, limits);
  e->version_file = v;
  return e;
}

// The package a consumer gets of its first pass (the plain find_package(<Name>), or one
// consumer's request): the pass, with its version file's verdict.
CMakePackage Begin(const std::string& name, const std::string& config, const PlainVersion& plain,
                   CMakeEvaluation first) {
  CMakePackage p;
  p.name = name;
  p.config = config;
  p.prefix = PackagePrefixOf(DirName(config), name);
  p.evaluation = std::move(first);
  // find_package() reads <config>-version.cmake or <config>Version.cmake first.
  if (!plain) return p;
  const std::string& v = plain->version_file;
  CMakeEvaluation result = *plain;
  p.version_file = v;
  p.version = Known(result, "PACKAGE_VERSION").value_or("");
  // An error in the version file fails the consumer's find_package() as one in the config.
  for (CMakeFailure& f : result.failures)
    if (f.undecided.empty()) p.evaluation.failures.insert(p.evaluation.failures.begin(), std::move(f));
  for (const CMakeReference& r : result.references)
    if (r.via == "include" && !r.exists && !r.optional && r.undecided.empty())
      p.evaluation.failures.insert(
          p.evaluation.failures.begin(),
          CMakeFailure::Of("include could not find requested file: " + HostPath(r.path), r.site));
  if (IsTrueConstant(Known(result, "PACKAGE_VERSION_UNSUITABLE").value_or("")))
    p.evaluation.failures.insert(
        p.evaluation.failures.begin(),
        {"the version file declares the package unsuitable (PACKAGE_VERSION_UNSUITABLE) for this consumer",
         {v, 0},
         {}});
  return p;
}

// The package a consumer gets: its version file's verdict, the plain pass (or the one
// request `asked`), and what asking for each component it offers adds, each pass merged as
// soon as it is evaluated (VTK offers 32, each defining its ~300 targets again).
CMakePackage AssemblePackage(const std::string& name, const std::string& config, const InstalledFiles& files,
                             const EvaluatorLimits& limits, DependencyResolver* resolver,
                             const GivenVariables& given, const AskedComponents& asked = {}) {
  const PlainVersion plain = EvaluatePlainVersion(name, config, files, limits);
  const std::string version = plain ? Known(*plain, "PACKAGE_VERSION").value_or("") : "";
  auto evaluate = [&](const std::string& component) {
    bool asked_targets = false;
    CMakeEvaluation e = EvaluateConfig(name, config, files, limits, resolver, component, version,
                                       &asked_targets, asked.optional, given);
    AddFoundFalse(name, config, component, e);
    return e;
  };
  const bool one_request = !asked.required.empty() || !asked.optional.empty();
  CMakePackage p = Begin(name, config, plain, evaluate(one_request ? JoinList(asked.required) : ""));
  // What a consumer that asks for each component gets besides (MIOpen asks for all of
  // composable_kernel's): a Targets file included only then hides from a plain evaluation.
  // What such a pass left set is read by no one once its <Name>_FOUND is judged
  // (AddFoundFalse): the package's variables are the plain pass's.
  if (!one_request && !p.evaluation.stopped) {
    const std::vector<std::string> offered = OfferedComponents(name, p.evaluation);
    ComponentMerger merger(p.evaluation);
    for (const std::string& c : offered) {
      p.components.push_back(c);
      merger.Merge(evaluate(c), c);
    }
  }
  FindComponentLibraries(p, files);
  AddSonameReferences(p, config, files);
  return p;
}

}  // namespace

CMakePackage EvaluatePackage(const std::string& name, const std::string& config, const InstalledFiles& files,
                             const EvaluatorLimits& limits, DependencyResolver* resolver,
                             const GivenVariables& given) {
  return AssemblePackage(name, config, files, limits, resolver, given);
}

CMakeEvaluation EvaluateFindModule(const std::string& name, const std::string& module,
                                   const AskedComponents& asked, const InstalledFiles& files,
                                   const EvaluatorLimits& limits, DependencyResolver* resolver) {
  bool asked_targets = false;
  return EvaluateConfig(name, module, files, limits, resolver, JoinList(asked.required), "", &asked_targets,
                        asked.optional);
}

CMakePackage EvaluatePackageAsked(const std::string& name, const std::string& config,
                                  const AskedComponents& asked, const InstalledFiles& files,
                                  const EvaluatorLimits& limits, DependencyResolver* resolver,
                                  const GivenVariables& given) {
  return AssemblePackage(name, config, files, limits, resolver, given, asked);
}

}  // namespace rocm_audit
