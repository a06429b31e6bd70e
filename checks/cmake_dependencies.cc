// cmake-missing-dependency: a find_dependency()/find_package() in a package config whose
// package is found nowhere a consumer would look: not among the audited packages, not in
// --cmake-prefix-path, not in the installed system (--root), and with no Find module of
// CMake. The consumer's find_package() of this package then fails.
#include "checks/cmake_package_site.h"
#include "checks/registry.h"

namespace rocm_audit {
namespace {

constexpr Rule kRules[] = {
    {"cmake-missing-dependency", Severity::kWarning,
     "a CMake package config asks for a dependency whose config is found nowhere a consumer would look",
     "ship (or depend on) the package that provides the dependency's config, or point --cmake-prefix-path "
     "at it when it comes from elsewhere",
     "package dependency",
     "The config calls find_dependency() or find_package() for a package whose config is found nowhere a "
     "consumer's CMake would look: not among the audited packages, the call's HINTS and PATHS, the "
     "--cmake-prefix-path prefixes or, with --root, the installed system, and CMake has no Find module for "
     "it. In the consumer's configure the call fails and takes this package down with it: \"Found package "
     "configuration file ... but it set <Name>_FOUND to FALSE so package \"<Name>\" is considered to be NOT "
     "FOUND. Reason given by package: <Name> could not be found because dependency <Dep> could not be "
     "found.\" The usual cause is a missing package dependency (the -dev package does not depend on the one "
     "that ships the dependency's config), or a build-time dependency that leaked into the exported config. "
     "Make the package depend on the one that installs <Dep>Config.cmake or <dep>-config.cmake, drop the "
     "call if consumers do not need it, or audit with --cmake-prefix-path when the dependency is installed "
     "elsewhere. An optional find_package (without REQUIRED) is only a note, since the package still loads "
     "without it.",
     "/usr/lib/x86_64-linux-gnu/cmake/hipblas/hipblas-config.cmake\n"
     "  warning[cmake-missing-dependency]: hipblas-config.cmake:41: hipblas asks for rocsolver, whose "
     "config is in none of the audited paths or searched prefixes\n"
     "    fix: make hipblas depend on the package that installs rocsolverConfig.cmake (or "
     "rocsolver-config.cmake), or audit with --cmake-prefix-path",
     "package dependency", "{package}: dependency {dependency} is found nowhere ({files})",
     "package:string line:integer in:path dependency:string version:string prefixes_searched:[path] "
     "undecided?:string"},
};

void Run(const TreeInput& in, FindingSink& sink) {
  for (const AuditedPackage& ap : in.cmake_packages) {
    for (const LocatedDependency& d : ap.package.dependencies) {
      if (!d.found.empty()) continue;
      Finding f = MakeFinding(kRules[0], in.files[ap.file].walked.path);
      f.message = SiteText(d.request.site) + ": " + ap.package.name + " asks for " + d.request.name +
                  (d.request.version.empty() ? "" : " " + d.request.version) +
                  ", whose config is in none of the audited paths or searched prefixes";
      if (!d.request.required) {
        f.severity = Severity::kNote;
        f.message += " (optional: the package still loads without it)";
      }
      f.hint = "make " + ap.package.name + " depend on the package that installs " + d.request.name +
               "Config.cmake (or " + d.request.name + "-config.cmake), or audit with --cmake-prefix-path";
      AddSiteFields(f, ap.package.name, d.request.site);
      f.fields["dependency"] = d.request.name;
      f.fields["version"] = d.request.version;
      f.fields["prefixes_searched"] = d.searched;
      MarkUndecided(f, d.request.undecided);
      sink.Add(std::move(f));
    }
  }
}

}  // namespace

extern const Check kCMakeDependenciesCheck{"cmake_dependencies", kRules, TreeCheck{Run}, kNeedsCMake};

}  // namespace rocm_audit
