// cmake-missing-dependency: a find_dependency()/find_package() in a package config whose
// package is found nowhere a consumer would look: not among the audited packages, not in
// --cmake-prefix-path, not in the installed system (--root), and with no Find module of
// CMake that may find it; or is found, but fails itself: for want of a required dependency of its own, or
// because its own config stops (a library its Targets file checks is missing).
// The consumer's find_package() of this package then fails.
// cmake-dependency-version: the dependency is found, but no config of it accepts the
// version asked for.
#include "audit/cmake/cmake_modules.h"
#include "checks/cmake_package_site.h"
#include "checks/registry.h"

namespace rocm_audit {
namespace {

constexpr Rule kRules[] = {
    // Warning: the consumer's find_package() of this package fails at configure unless the consumer finds the
    // dependency by itself: CMake also searches the consumer's CMAKE_PREFIX_PATH, <Dep>_DIR and package
    // registry, which no audit sees. An optional find_package is a note. lintian, auditwheel: none.
    {
        .id = "cmake-missing-dependency",
        .severity = Severity::kWarning,
        .title = "a CMake package config asks for a dependency whose config is found nowhere a consumer "
                 "would look",
        .fix = "ship (or depend on) the package that provides the dependency's config, or point "
               "--cmake-prefix-path at it when it comes from elsewhere",
        .key_fields = "package dependency",
        .explanation = "The config calls find_dependency() or find_package() for a package whose config is "
                       "found nowhere a consumer's CMake would look: not among the audited packages, the "
                       "call's HINTS and PATHS, the --cmake-prefix-path prefixes or, with --root, the "
                       "installed system, and CMake has no Find module for it, or has one that finds nothing "
                       "when run against the installed system (FindCups without cups/cups.h: its find_path() "
                       "and find_library() answered there, nothing in it left unevaluated). In the "
                       "consumer's configure "
                       "the call fails and takes this package down with it: \"Found package configuration "
                       "file ... but it set <Name>_FOUND to FALSE so package \"<Name>\" is considered to be "
                       "NOT FOUND. Reason given by package: <Name> could not be found because dependency "
                       "<Dep> could not be found.\" The usual cause is a missing package dependency (the "
                       "-dev package does not depend on the one that ships the dependency's config), or a "
                       "build-time dependency that leaked into the exported config. Make the package depend "
                       "on the one that installs <Dep>Config.cmake or <dep>-config.cmake, drop the call if "
                       "consumers do not need it, or audit with --cmake-prefix-path when the dependency is "
                       "installed elsewhere. A dependency that is found but whose own config fails fails "
                       "this package as well: for want of a required dependency of its own (at any depth), "
                       "or because the config itself stops (a library its Targets file checks is not "
                       "installed). Each find_dependency() up the chain sets its package's <Name>_FOUND "
                       "False, and the finding names what fails at the bottom. An optional find_package "
                       "(without REQUIRED) is only a note, since the package still loads without it.",
        .example = "/usr/lib/x86_64-linux-gnu/cmake/hipblas/hipblas-config.cmake\n"
                   "  warning[cmake-missing-dependency]: hipblas-config.cmake:41: hipblas asks for "
                   "rocsolver, whose config is in none of the audited paths or searched prefixes\n"
                   "    fix: make hipblas depend on the package that installs rocsolverConfig.cmake (or "
                   "rocsolver-config.cmake), or audit with --cmake-prefix-path",
        .cause_fields = "package dependency",
        .cause = "{package}: dependency {dependency} is found nowhere ({files})",
        .fields = "package:string line:integer in:path cmake_stage?:string dependency:string version:string "
                  "prefixes_searched:[path] asked_component?:string undecided?:string",
    },
    // Error: the dependency is found and every config of it turns the version down, so the consumer's
    // configure fails ("Could not find a configuration file ... compatible with requested version"). An
    // optional find_package is a note. lintian, auditwheel: none.
    {
        .id = "cmake-dependency-version",
        .severity = Severity::kError,
        .title = "a CMake package config asks for a dependency version that no installed config of the "
                 "dependency accepts",
        .fix = "ask for the version the dependency ships (or a range), ship the dependency's version file, "
               "or depend on the version asked for",
        .key_fields = "package dependency",
        .explanation = "The config calls find_dependency(<Dep> <version>) (or find_package with a version, "
                       "EXACT or a range such as 1.2...<2.0), and every config of <Dep> a consumer's "
                       "find_package() would find turns the version down. CMake evaluates each candidate's "
                       "version file (<Dep>ConfigVersion.cmake or <dep>-config-version.cmake) with the "
                       "requested version, and takes a config only when the file says "
                       "PACKAGE_VERSION_COMPATIBLE (PACKAGE_VERSION_EXACT with EXACT) and not "
                       "PACKAGE_VERSION_UNSUITABLE; a config without a version file is never taken when a "
                       "version is asked for. The compatibility rules are the version file's own "
                       "(write_basic_package_version_file: AnyNewerVersion, SameMajorVersion, "
                       "SameMinorVersion, ExactVersion). The consumer's configure then fails: \"Could not "
                       "find a configuration file for package <Dep> that is compatible with requested "
                       "version ... The following configuration files were considered but not accepted\". A "
                       "required dependency is an error; an optional one a note. Ask for a version the "
                       "installed dependency accepts, ship its version file, or make the package depend on "
                       "the version it asks for.",
        .example = "/usr/lib/x86_64-linux-gnu/cmake/hipsparse/hipsparse-config.cmake\n"
                   "  error[cmake-dependency-version]: hipsparse-config.cmake:38: hipsparse asks for "
                   "rocsparse 4.0; considered but not accepted: "
                   "/usr/lib/x86_64-linux-gnu/cmake/rocsparse/rocsparse-config.cmake, version: 3.1.2 (its "
                   "version file does not call 3.1.2 compatible with 4.0)\n"
                   "    fix: ask for a version rocsparse accepts, ship its version file, or make hipsparse "
                   "depend on rocsparse 4.0",
        .cause_fields = "package dependency",
        .cause = "{package}: dependency {dependency} {version} is not accepted ({files})",
        .fields = "package:string line:integer in:path cmake_stage?:string dependency:string version:string "
                  "considered:[string] asked_component?:string undecided?:string",
    },
};

void VersionRejected(const AuditedPackage& ap, const LocatedDependency& d, const std::string& file,
                     FindingSink& sink) {
  Finding f = MakeFinding(kRules[1], file);
  PathText considered;
  std::vector<std::string> considered_field;
  for (const LocatedDependency::Rejected& r : d.rejected) {
    considered += (considered.text().empty() ? "" : "; ") + r.Text();
    considered_field.push_back(r.Text().text());
  }
  f.SetMessage(SiteText(d.request.site) + ": " + ap.package.name + " asks for " + d.request.name + " " +
               (d.request.exact ? "exactly " : "") + d.request.version +
               "; considered but not accepted: " + considered);
  f.SetHint("ask for a version " + d.request.name + " accepts, ship its version file, or make " +
            ap.package.name + " depend on " + d.request.name + " " + d.request.version);
  AddSiteFields(f, ap.package.name, d.request.site);
  if (d.request.required) {
    SetCMakeStage(f, "configure");
  } else {
    f.severity = Severity::kNote;
    f.message += " (optional: the package still loads without it)";
  }
  f.fields["dependency"] = d.request.name;
  f.fields["version"] = d.request.version;
  f.fields["considered"] = considered_field;
  MarkAskedComponent(f, d.request.asked_component);
  MarkUndecided(f, d.request.undecided);
  sink.Add(std::move(f));
}

// The fields and stage every finding on a dependency carries: where the config asks for it,
// what it asks for, and the prefixes searched.
void AddDependencyFields(const AuditedPackage& ap, const LocatedDependency& d, Finding f, FindingSink& sink) {
  AddSiteFields(f, ap.package.name, d.request.site);
  if (d.request.required) SetCMakeStage(f, "configure");
  f.fields["dependency"] = d.request.name;
  f.fields["version"] = d.request.version;
  f.fields["prefixes_searched"] = d.searched;
  MarkAskedComponent(f, d.request.asked_component);
  MarkUndecided(f, d.request.undecided);
  sink.Add(std::move(f));
}

// The dependency is found, but its own config fails for want of a required dependency of
// its own: CMake fails find_package() of it, and with it this package's (CMakeFindDependencyMacro
// at each level), as it does when the dependency is found nowhere.
void MissingBelow(const AuditedPackage& ap, const LocatedDependency& d, const std::string& file,
                  FindingSink& sink) {
  Finding f = MakeFinding(kRules[0], file);
  f.SetMessage(SiteText(d.request.site) + ": " + ap.package.name + " asks for " + d.request.name +
               (d.request.version.empty() ? "" : " " + d.request.version) + ", found at " +
               HostPath(d.found) + ", which cannot be loaded: " + d.missing_below);
  if (!d.request.required) {
    f.severity = Severity::kNote;
    f.message += " (optional: the package still loads without it)";
  }
  if (!d.missing_command.empty())
    f.SetHint("include(" + std::string(ModuleOfCommand(d.missing_command)) + ") where " + d.missing_command +
              "() is called, or in " + ap.package.name + "'s config before it asks for " + d.request.name);
  else
    f.SetHint("make " + ap.package.name + "'s package depend on what " + d.request.name +
              " needs, or fix the dependency's package");
  AddDependencyFields(ap, d, std::move(f), sink);
}

void Run(const TreeInput& in, FindingSink& sink) {
  for (const AuditedPackage& ap : in.cmake_packages) {
    for (const LocatedDependency& d : ap.package.dependencies) {
      if (!d.found.empty() && !d.missing_below.empty())
        MissingBelow(ap, d, in.files[ap.file]->walked.path, sink);
      if (!d.found.empty()) continue;
      if (!d.rejected.empty()) {
        VersionRejected(ap, d, in.files[ap.file]->walked.path, sink);
        continue;
      }
      Finding f = MakeFinding(kRules[0], in.files[ap.file]->walked.path);
      f.message = SiteText(d.request.site) + ": " + ap.package.name + " asks for " + d.request.name +
                  (d.request.version.empty() ? "" : " " + d.request.version) +
                  (d.module_finds_none.empty()
                       ? ", whose config is in none of the audited paths or searched prefixes"
                       : ", which no config provides and CMake's Find" + d.request.name +
                             ".cmake finds nowhere on the installed system (" + d.module_finds_none + ")");
      if (!d.request.required) {
        f.severity = Severity::kNote;
        f.message += " (optional: the package still loads without it)";
      }
      if (d.module_finds_none.empty())
        f.SetHint("make " + ap.package.name + " depend on the package that installs " + d.request.name +
                  "Config.cmake (or " + d.request.name + "-config.cmake), or audit with --cmake-prefix-path");
      else
        f.SetHint("make " + ap.package.name + " depend on the package that installs " + d.request.name +
                  "'s headers and libraries (what Find" + d.request.name + ".cmake looks for)");
      AddDependencyFields(ap, d, std::move(f), sink);
    }
  }
}

}  // namespace

extern const Check kCMakeDependenciesCheck{"cmake_dependencies", kRules, TreeCheck{Run}, kNeedsCMake};

}  // namespace rocm_audit
