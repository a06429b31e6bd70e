// cmake-missing-target, cmake-no-location, cmake-missing-library: imported targets a consumer
// gets from find_package() but cannot use. CMake loads the config without complaint and fails when
// the consumer links the target: at generate, for a link interface naming a target nobody
// defines (policy CMP0028) or a library target with no location for any configuration
// (CMP0111); at build, under the old behaviour of CMP0111, on "<target>-NOTFOUND".
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "audit/cmake/cmake_modules.h"
#include "audit/cmake/dependency_locator.h"
#include "audit/cmake/genex.h"
#include "audit/cmake/imported_location.h"
#include "audit/cmake/linker_search.h"
#include "audit/cmake/lists.h"
#include "audit/cmake/target_namespace.h"
#include "checks/cmake_package_site.h"
#include "checks/registry.h"

namespace rocm_audit {
namespace {

constexpr Rule kRules[] = {
    // Error: the consumer's generate step fails as soon as it links the target (policy CMP0028); a target of
    // a dependency the audit could not evaluate gets the benefit of the doubt. lintian, auditwheel: none.
    {
        .id = "cmake-missing-target",
        .severity = Severity::kError,
        .title = "an imported target's link interface names a target (ns::name) that neither the package "
                 "nor any of its dependencies defines",
        .fix = "find_dependency() the package that defines the target in the config, or stop exporting it "
               "in the link interface",
        .key_fields = "package target linked",
        .explanation =
            "An imported target of the package lists another target in INTERFACE_LINK_LIBRARIES "
            "(hip::host, roc::rocblas, Threads::Threads), and nothing a consumer gets from "
            "find_package(<Name>) defines it: not the package, and not the dependencies its "
            "config finds, which rocm-audit evaluates in the same run. CMake treats a name with "
            "\"::\" as a target, so the consumer configures, and its generate step fails as soon "
            "as it links the target: \"Target ... links to target \"hip::host\" but the target "
            "was not found. Perhaps a find_package() call is missing for an IMPORTED target\". "
            "The usual cause is a dependency used to build the package whose find_dependency() "
            "is missing from the exported config (the build found it itself), or a target "
            "renamed by the dependency. Add find_dependency(<Dep>) to the config for the package "
            "that defines the target, or export a link interface without it. An item "
            "$<TARGET_PROPERTY:ns::name,...> in any INTERFACE_ property of the target fails the "
            "same way (\"Target ... not found\"): Qt 6.8's PrintSupportPrivate reads the include "
            "directories of Cups::Cups, which exists only where CMake's FindCups finds CUPS. So does "
            "$<TARGET_OBJECTS:name>, $<TARGET_FILE:name> or a sibling of theirs, whatever the name: "
            "adios2 2.10 gives adios2::adios2sys_private the INTERFACE_SOURCES "
            "$<TARGET_OBJECTS:adios2sys_objects>, an object library of its build it never exports. "
            "A dependency's target that fails so fails every target that links it, through any "
            "chain of link interfaces and packages, and the finding names the target nobody "
            "defines. A "
            "language's target of CMake's FindMPI or FindOpenMP (MPI::MPI_Fortran) exists only for "
            "a consumer that enables the language, and project() enables C and CXX. When a "
            "dependency could not be evaluated (a Find module of CMake, a config not found), a target named "
            "after it is given the benefit of the doubt.",
        .example = "/usr/lib/x86_64-linux-gnu/cmake/hipblaslt/hipblaslt-config.cmake\n"
                   "  error[cmake-missing-target]: hipblaslt-targets.cmake:61: INTERFACE_LINK_LIBRARIES of "
                   "roc::hipblaslt names hip::host, which neither hipblaslt nor its dependencies (none) "
                   "define\n"
                   "    fix: add find_dependency() of the package that defines hip::host to hipblaslt's "
                   "config, or drop it from the link interface",
        .cause_fields = "package linked",
        .cause = "{package}: {n} link-interface targets nobody defines: {linked*} ({files})",
        .fields = "package:string line:integer in:path cmake_stage:string target:string linked:string "
                  "dependencies:[string] asked_component?:string undecided?:string",
    },
    // Error: the consumer's generate step fails when it links the target (policy CMP0111), or its build fails
    // on <target>-NOTFOUND under the old policy. lintian, auditwheel: none.
    {
        .id = "cmake-no-location",
        .severity = Severity::kError,
        .title = "an imported library target has no IMPORTED_LOCATION for any configuration",
        .fix = "install the per-configuration Targets files (<Name>Targets-<config>.cmake) that set the "
               "locations",
        .key_fields = "package target",
        .explanation = "An imported SHARED, STATIC, MODULE or UNKNOWN library target of the package has no "
                       "IMPORTED_LOCATION, no IMPORTED_LOCATION_<CONFIG> and no IMPORTED_IMPLIB once the "
                       "config is loaded. CMake's generated Targets file defines the target and leaves its "
                       "locations to the per-configuration files (<Name>Targets-release.cmake, ...), which "
                       "it includes with a file(GLOB): when all of them are lost (left out of the package, "
                       "deleted by a cleanup of build-type files), find_package() still succeeds and the "
                       "consumer's generate step fails when it links the target: \"IMPORTED_LOCATION not "
                       "set for imported target ...\" (policy CMP0111, NEW from CMake 3.19; the generated "
                       "files set it). Where the target was defined under older policies CMake only warns, "
                       "and the build fails on \"<target>-NOTFOUND\". Install the per-configuration Targets "
                       "files with the rest of the export.",
        .example = "/usr/lib/x86_64-linux-gnu/cmake/Widget/WidgetConfig.cmake\n"
                   "  error[cmake-no-location]: WidgetTargets.cmake:60: the imported target Widget::widget "
                   "(SHARED) has no IMPORTED_LOCATION for any configuration; the consumer's generate step "
                   "fails when it links it\n"
                   "    fix: install the per-configuration Targets files (WidgetTargets-<config>.cmake) "
                   "that set its location",
        .cause_fields = "package",
        .cause = "{package}: {n} imported targets without a location ({files})",
        .fields = "package:string line:integer in:path cmake_stage:string target:string type:string "
                  "asked_component?:string undecided?:string",
    },
    // Error: the consumer configures and generates, and its build fails when it links the target ("cannot
    // find -l<name>"); only a world with a base answers where the linker looks. lintian, auditwheel: none.
    {
        .id = "cmake-missing-library",
        .severity = Severity::kError,
        .title = "an imported target's link interface names a library (-l<name>) that the linker finds in "
                 "none of the installed system's library directories",
        .fix = "find_dependency() the package that provides the library, link it by target or full path, or "
               "drop it from the link interface",
        .key_fields = "package target library",
        .explanation =
            "An imported target of the package lists a plain name (or -l<name>) in "
            "INTERFACE_LINK_LIBRARIES that is no target a consumer has from find_package(<Name>). "
            "CMake passes such an item to the linker as -l<name>, and GNU ld looks for "
            "lib<name>.so, then lib<name>.a, in the compiler's and its own built-in directories "
            "(the consumer's build adds no -L for an imported target). When the installed system "
            "has neither in any of them, the consumer configures and generates, and its build "
            "fails when it links the target: \"cannot find -l<name>\". The usual cause is a "
            "dependency exported by its target name whose package defines no such target on the "
            "consumer's machine (a header-only library exported as \"xtl\" that the distribution "
            "does not ship), or a library of the build machine. Make the package depend on the "
            "one that installs the library, export the dependency by target with "
            "find_dependency(), or drop the item. Only a world that is a whole system (the host or "
            "--root layers, not --no-base) answers where the linker looks. An item that starts with "
            "'$' or '`' and names a path (an unexpanded qmake $$[QT_HOST_LIBS]/libQt5Core.so) is no "
            "variable CMake expands: CMake takes it for a linker option and passes it verbatim, the "
            "linker opens it as a file, and none has that name.",
        .example = "/usr/lib/x86_64-linux-gnu/cmake/xsimd/xsimdConfig.cmake\n"
                   "  error[cmake-missing-library]: xsimdTargets.cmake:69: INTERFACE_LINK_LIBRARIES of xsimd "
                   "names xtl, which CMake passes to the linker as -lxtl; no libxtl.so or libxtl.a in the "
                   "linker's directories of the installed system: the consumer's build fails when it links "
                   "xsimd\n"
                   "    fix: make xsimd's package depend on the one that installs libxtl, or drop xtl from "
                   "the link interface",
        .cause_fields = "package library",
        .cause = "{package}: {n} libraries the linker finds nowhere: {library*} ({files})",
        .fields = "package:string line:integer in:path cmake_stage:string target:string library:string "
                  "asked_component?:string undecided?:string",
    },
};

bool HasLocation(const CMakeTarget& t) {
  for (const auto& [name, value] : t.properties)
    if (name.starts_with("IMPORTED_LOCATION") || name.starts_with("IMPORTED_IMPLIB") ||
        name == "IMPORTED_OBJECTS" || name.starts_with("IMPORTED_OBJECTS_"))
      return true;
  return false;
}

// The configurations whose IMPORTED_LOCATION_<CONFIG> is set, when a consumer with no build
// type (CMake's default) maps none of them (MappedImportedLocation): VPL's hand-written config
// sets the locations of four configurations and no IMPORTED_CONFIGURATIONS. Empty when it maps
// one, or when a location is not known here.
std::vector<std::string> LocationsAPlainConsumerCannotMap(const CMakeTarget& t) {
  static const std::string kPrefix = "IMPORTED_LOCATION_";
  if (MappedImportedLocation(t, "") || t.properties.count("IMPORTED_OBJECTS")) return {};
  std::vector<std::string> configs;
  for (auto it = t.properties.lower_bound(kPrefix);
       it != t.properties.end() && it->first.starts_with(kPrefix); ++it) {
    if (!it->second.known) return {};
    configs.push_back(it->first.substr(kPrefix.size()));
  }
  return configs;
}

// Whether CMP0111 is NEW where the target was defined: cmake_policy(VERSION) 3.19 or later.
// A config that sets no policy version defines its targets under its consumer's: a project
// written for the installed CMake (3.25 on Debian 12), which has it NEW (VPL's config).
bool LocationRequired(const CMakeTarget& t) {
  if (t.policy_version.empty()) return true;
  unsigned major = 0, minor = 0;
  if (sscanf(t.policy_version.c_str(), "%u.%u", &major, &minor) < 1) return false;
  return major > 3 || (major == 3 && minor >= 19);
}

void NoLocation(const AuditedPackage& ap, const std::string& file, FindingSink& sink) {
  const CMakePackage& p = ap.package;
  if (p.evaluation.stopped) return;
  for (const CMakeTarget& t : p.evaluation.targets) {
    if (!t.imported ||
        (t.type != "SHARED" && t.type != "STATIC" && t.type != "MODULE" && t.type != "UNKNOWN"))
      continue;
    const std::vector<std::string> unmapped =
        HasLocation(t) ? LocationsAPlainConsumerCannotMap(t) : std::vector<std::string>{};
    if (HasLocation(t) && unmapped.empty()) continue;
    Finding f = MakeFinding(kRules[1], file);
    const bool required = LocationRequired(t);
    f.message =
        SiteText(t.defined_at) + ": the imported target " + t.name + " (" + t.type + ") has " +
        (unmapped.empty() ? "no IMPORTED_LOCATION for any configuration"
                          : "IMPORTED_LOCATION only for " + JoinList(unmapped, ", ") +
                                " and no IMPORTED_CONFIGURATIONS naming one, which a consumer with no "
                                "build type (CMake's default) maps to none") +
        "; the consumer's " + (required ? "generate step" : "build") + " fails when it links it";
    std::string stem(BaseName(t.defined_at.file.str()));
    stem = stem.ends_with(".cmake") ? stem.substr(0, stem.size() - 6) : p.name + "Targets";
    f.SetHint(unmapped.empty()
                  ? "install the per-configuration Targets files (" + stem +
                        "-<config>.cmake) that set its location"
                  : "list the configurations in the target's IMPORTED_CONFIGURATIONS (as CMake's "
                    "generated Targets files do), or set IMPORTED_LOCATION");
    AddSiteFields(f, p.name, t.defined_at);
    SetCMakeStage(f, required ? "generate" : "build");
    f.fields["target"] = t.name;
    f.fields["type"] = t.type;
    MarkAskedComponent(f, t.asked_component);
    sink.Add(std::move(f));
  }
}

// What a consumer asking for `component` ("" for none) gets from the package's
// dependencies: those the plain config finds and those the component finds. A dependency
// only another component asks for is never looked for, so its targets do not exist for
// this consumer, and its namespace earns no benefit of the doubt.
struct ConsumerDependencies {
  std::set<std::string> defined;  ///< with the package's own targets for this consumer
  std::set<std::string> unknown_namespaces;
  /// Dependencies evaluated only in part, by the namespaces of the targets they reached (and
  /// their own lower-case name): checked as far as the evaluation went, the finding says so.
  std::map<std::string, std::set<std::string>> partly_evaluated;
  std::vector<std::string> names;
  bool complete = true;
  /// The dependencies' targets that fail a consumer's generate step, with why
  /// (LocatedDependency::unusable_targets).
  UnusableTargets unusable;
};

ConsumerDependencies ForConsumer(const CMakePackage& p, const std::string& component) {
  ConsumerDependencies out;
  for (const LocatedDependency& d : p.dependencies) {
    if (!d.request.asked_component.empty() && d.request.asked_component != component) continue;
    out.names.push_back(d.request.name);
    const bool unknown = !d.targets_known || !d.request.undecided.empty();
    if (!d.found.empty() || d.request.required) {  // an optional one not found defines nothing
      out.defined.insert(d.targets.begin(), d.targets.end());
      out.complete &= !unknown;
      if (d.unusable_targets) out.unusable.insert(d.unusable_targets->begin(), d.unusable_targets->end());
    }
    // Namespaces of dependencies whose targets are not all known (Find modules, configs
    // not found or not evaluated): a target in one of them may exist. A config evaluated in
    // part (Qt6's, whose own macros define more than is evaluated) defines what it reached:
    // KF6::ConfigGui links Qt6::Gui, which no config KF6Config finds defines.
    if (unknown && d.evaluated) {
      for (const std::string& ns : PartlyEvaluatedNamespaces(d.request.name, d.targets))
        out.partly_evaluated[ns].insert(d.request.name);
    } else if (unknown) {
      // Its name's and its targets' (and CUDA's of FindCUDAToolkit), as if(TARGET) reads them.
      out.unknown_namespaces.merge(FindModuleNamespaces(d.request.name, d.targets));
    }
  }
  for (const CMakeTarget& t : p.evaluation.targets)
    if (t.asked_component.empty() || t.asked_component == component) out.defined.insert(t.name);
  return out;
}

// A plain name no target answers is -l<name> to the linker, which finds it nowhere in the world.
// An item starting with '$' or '`' is a linker option to cmComputeLinkInformation, passed
// verbatim: one that names a path (an unexpanded qmake variable) is a file no one has.
void MissingLibrary(const CMakePackage& p, const CMakeTarget& t, const std::string& item,
                    const std::string& file, FindingSink& sink,
                    const std::string& property = "INTERFACE_LINK_LIBRARIES") {
  const bool verbatim = (item.starts_with("$") || item.starts_with("`")) &&
                        item.find('/') != std::string::npos && !item.starts_with("$<");
  const std::string name = verbatim ? item : LinkedLibraryName(item);
  auto found = p.linked_libraries.find(name);
  if (!verbatim && (name.empty() || found == p.linked_libraries.end() || !found->second.empty())) return;
  Finding f = MakeFinding(kRules[2], file);
  auto site = t.set_at.find(property);
  const CMakeSite& at = site == t.set_at.end() ? t.defined_at : site->second;
  f.message = SiteText(at) + ": " + property + " of " + t.name + " names " + item +
              (verbatim ? ", which CMake passes to the linker verbatim, as a linker option; the linker opens "
                          "it as a file, which no one has: the consumer's build fails when it links "
                        : ", which CMake passes to the linker as -l" + name + "; no lib" + name +
                              ".so or lib" + name +
                              ".a in the linker's directories of the installed system: the consumer's build "
                              "fails when it links ") +
              t.name;
  f.SetHint(verbatim ? "export the path the variable stands for (the installed library, or its target)"
                     : "make " + p.name + "'s package depend on the one that installs lib" + name +
                           ", or drop " + item + " from the link interface");
  AddSiteFields(f, p.name, at);
  SetCMakeStage(f, "build");
  f.fields["target"] = t.name;
  f.fields["library"] = name;
  MarkAskedComponent(f, t.asked_component);
  sink.Add(std::move(f));
}

// cmake-missing-target for `item`, which `property` of `t` links (`expression` empty) or names
// in a generator expression ("TARGET_PROPERTY", "TARGET_OBJECTS", ...).
void MissingTarget(const CMakePackage& p, const CMakeTarget& t, const std::string& item,
                   const std::string& property, const std::string& expression,
                   const ConsumerDependencies& deps, const std::string& file, FindingSink& sink) {
  const bool read = !expression.empty();
  Finding f = MakeFinding(kRules[0], file);
  auto site = t.set_at.find(property);
  const CMakeSite& at = site == t.set_at.end() ? t.defined_at : site->second;
  std::string names;
  for (const std::string& d : deps.names) names += (names.empty() ? "" : ", ") + d;
  std::string partly;
  if (auto it = deps.partly_evaluated.find(TargetNamespace(item)); it != deps.partly_evaluated.end())
    for (const std::string& d : it->second) partly += (partly.empty() ? "" : ", ") + d;
  // A language's target of FindMPI or FindOpenMP, of a language the consumer does not enable:
  // its project() enables C and CXX unless it names others.
  std::string module, language;
  for (const LocatedDependency& d : p.dependencies)
    if (d.found == "Find" + d.request.name + ".cmake of CMake")
      if (std::string_view l = FindModuleTargetLanguage(d.request.name, item); !l.empty()) {
        module = d.request.name, language = l;
        break;
      }
  f.message = SiteText(at) + ": " + property + " of " + t.name +
              (expression == "TARGET_PROPERTY"
                   ? " reads a property of " + item + " ($<TARGET_PROPERTY:" + item + ",...>)"
               : read ? " names " + item + " in $<" + expression + ":" + item + ">"
                      : " names " + item) +
              ", which neither " + p.name + " nor its dependencies (" + (names.empty() ? "none" : names) +
              ") define" +
              (partly.empty() ? ""
                              : " as far as their evaluation reaches (" + partly +
                                    " evaluated in part; none defines it where evaluated)") +
              (module.empty() ? ""
                              : " (CMake's Find" + module + " defines it only for a consumer that enables " +
                                    language + "; project() enables C and CXX)") +
              "; the consumer's generate step fails when it links " + t.name;
  if (!module.empty())
    f.SetHint("enable_language(" + language + ") in " + p.name + "'s config before it finds " + module +
              ", or drop " + item + " from the link interface");
  else
    f.SetHint("add find_dependency() of the package that defines " + item + " to " + p.name +
              "'s config, or drop " +
              (read ? "the expression from " + property : "it from the link interface"));
  AddSiteFields(f, p.name, at);
  SetCMakeStage(f, "generate");
  f.fields["target"] = t.name;
  f.fields["linked"] = item;
  f.fields["dependencies"] = deps.names;
  MarkAskedComponent(f, t.asked_component);
  sink.Add(std::move(f));
}

// cmake-missing-target for a dependency's target `item` that `t` links and that fails the
// consumer's generate step itself (`why`): a target that links adios2::adios2sys_private, whose
// $<TARGET_OBJECTS:adios2sys_objects> names a target adios2 never exports, fails so in any
// package, directly or through other targets' link interfaces.
void LinksAnUnusableTarget(const CMakePackage& p, const CMakeTarget& t, const std::string& item,
                           const std::string& property, const UnusableTarget& why,
                           const ConsumerDependencies& deps, const std::string& file, FindingSink& sink) {
  Finding f = MakeFinding(kRules[0], file);
  auto site = t.set_at.find(property);
  const CMakeSite& at = site == t.set_at.end() ? t.defined_at : site->second;
  f.message = SiteText(at) + ": " + property + " of " + t.name + " names " + item +
              ", which fails the generate step of whoever links it: " + why.why +
              "; the consumer's generate step " + "fails when it links " + t.name;
  f.SetHint("fix the dependency that defines " + item + " (or require a version of it that works), or drop " +
            item + " from the link interface");
  AddSiteFields(f, p.name, at);
  SetCMakeStage(f, "generate");
  f.fields["target"] = t.name;
  // The target nobody defines, as the rule's other findings name it.
  f.fields["linked"] = why.missing;
  f.fields["dependencies"] = deps.names;
  MarkAskedComponent(f, t.asked_component);
  sink.Add(std::move(f));
}

// What `t` names for a consumer: the items of its link interface (CMakeTarget::LinkInterface,
// as a consumer sees them) and, apart, the targets its INTERFACE_* properties name in
// expressions that need them (TargetsNamedByItems), each once.
struct NamedByTarget {
  std::string link_property;  ///< the property the link interface is read from
  std::vector<std::string> linked;
  struct Read {
    std::string target, property, expression;
  };
  std::vector<Read> read;
};

NamedByTarget NamedTargets(const CMakeTarget& t) {
  NamedByTarget out;
  std::set<std::string> seen;
  CMakeValue joined;
  const auto [links, property] = t.LinkInterface(&joined);
  out.link_property = property;
  if (links && links->known)
    for (const std::string& item : InstallInterfaceItems(links->text))
      if (seen.insert(item).second) out.linked.push_back(item);
  for (const auto& [name, value] : t.properties) {
    if (!name.starts_with("INTERFACE_") || !value.known) continue;
    // A property read names an imported target of a namespace; an object library or a file
    // ($<TARGET_OBJECTS:adios2sys_objects> in adios2 2.10's INTERFACE_SOURCES, a target of
    // its build tree never exported) may have a plain name.
    for (TargetReference& r : TargetsNamedByItems(value.text))
      if ((r.expression != "TARGET_PROPERTY" || r.target.find("::") != std::string::npos) &&
          seen.insert(r.target).second)
        out.read.push_back({std::move(r.target), name, std::move(r.expression)});
  }
  return out;
}

void MissingTargets(const AuditedPackage& ap, const std::string& file, FindingSink& sink) {
  const CMakePackage& p = ap.package;
  if (p.evaluation.stopped) return;
  // A config that already fails at configure (a dependency not found) is reported as that;
  // one a component asks for fails only the consumers that ask for it.
  std::set<std::string> failed_components;
  for (const LocatedDependency& d : p.dependencies) {
    if ((!d.found.empty() && d.missing_below.empty()) || !d.request.required || !d.request.undecided.empty())
      continue;
    if (d.request.asked_component.empty()) return;
    failed_components.insert(d.request.asked_component);
  }
  std::map<std::string, ConsumerDependencies> consumers;
  for (const CMakeTarget& t : p.evaluation.targets) {
    if (!t.imported || failed_components.count(t.asked_component)) continue;
    const NamedByTarget named = NamedTargets(t);
    if (named.linked.empty() && named.read.empty()) continue;
    auto [at_consumer, added] = consumers.try_emplace(t.asked_component);
    if (added) at_consumer->second = ForConsumer(p, t.asked_component);
    const ConsumerDependencies& deps = at_consumer->second;
    // Defined, or of a namespace whose dependency could not be evaluated: the benefit of the doubt.
    auto excused = [&](const std::string& item) {
      return deps.defined.count(item) ||
             (!deps.complete && deps.unknown_namespaces.count(TargetNamespaceOrName(item)));
    };
    for (const std::string& item : named.linked) {
      if (auto bad = deps.unusable.find(item); bad != deps.unusable.end()) {
        LinksAnUnusableTarget(p, t, item, named.link_property, bad->second, deps, file, sink);
        continue;
      }
      if (deps.defined.count(item)) continue;
      if (item.find("::") == std::string::npos) {
        if (deps.complete) MissingLibrary(p, t, item, file, sink, named.link_property);
      } else if (!excused(item)) {
        MissingTarget(p, t, item, named.link_property, "", deps, file, sink);
      }
    }
    for (const NamedByTarget::Read& r : named.read)
      if (!excused(r.target)) MissingTarget(p, t, r.target, r.property, r.expression, deps, file, sink);
  }
}

// INTERFACE_LINK_OPTIONS reach the linker as they are ("SHELL:" split into words): a word
// that is no option and starts with '$' or '`' is a file name no one has (Qt 5's configs put
// the .prl entries they cannot place, an unexpanded $$[QT_HOST_LIBS]/libQt5Core.so, there).
void VerbatimLinkOptions(const AuditedPackage& ap, const std::string& file, FindingSink& sink) {
  for (const CMakeTarget& t : ap.package.evaluation.targets) {
    auto options = t.properties.find("INTERFACE_LINK_OPTIONS");
    if (!t.imported || options == t.properties.end() || !options->second.known) continue;
    std::set<std::string> seen;
    for (std::string item : InstallInterfaceItems(options->second.text)) {
      if (item.starts_with("SHELL:")) item = item.substr(6);
      size_t at = 0;
      while ((at = item.find_first_not_of(" \t", at)) != std::string::npos) {
        const size_t end = std::min(item.find_first_of(" \t", at), item.size());
        const std::string word = item.substr(at, end - at);
        at = end;
        if ((word.starts_with("$") || word.starts_with("`")) && seen.insert(word).second)
          MissingLibrary(ap.package, t, word, file, sink, "INTERFACE_LINK_OPTIONS");
      }
    }
  }
}

void Run(const TreeInput& in, FindingSink& sink) {
  for (const AuditedPackage& ap : in.cmake_packages) {
    const std::string& file = in.files[ap.file]->walked.path;
    MissingTargets(ap, file, sink);
    if (!ap.package.evaluation.stopped) VerbatimLinkOptions(ap, file, sink);
    NoLocation(ap, file, sink);
  }
}

}  // namespace

extern const Check kCMakeImportedTargetsCheck{"cmake_imported_targets", kRules, TreeCheck{Run}, kNeedsCMake};

}  // namespace rocm_audit
