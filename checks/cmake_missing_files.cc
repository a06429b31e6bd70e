// cmake-missing-file, cmake-config-error: what would make find_package(<Name>) fail, or
// a consumer's build or programs fail, for a package config: files its list files need
// that are not installed, and the other ways it stops a consumer's configure.
#include <map>

#include "checks/cmake_package_site.h"
#include "checks/installed_elsewhere.h"
#include "checks/registry.h"

namespace rocm_audit {
namespace {

constexpr Rule kRules[] = {
    // Error: find_package() or the consumer's generate step fails on the missing file. A missing
    // IMPORTED_SONAME link is a warning: CMake does not check it, and ldconfig creates soname links in the
    // directories it manages; a reference reached only on an undecided branch is a note. lintian, auditwheel:
    // none.
    {
        .id = "cmake-missing-file",
        .severity = Severity::kError,
        .title = "a CMake package config needs a file that is not installed (an include()d file, an "
                 "imported target's library or include directory, a set_and_check path)",
        .fix = "install the file, or change the config so that it no longer names it",
        .key_fields = "package via referenced target component",
        .explanation = "A CMake package config, evaluated statically the way find_package(<Name> CONFIG) "
                       "would load it, names a file the installed tree does not have: a file it include()s "
                       "without OPTIONAL, the library of an imported target (IMPORTED_LOCATION, "
                       "IMPORTED_IMPLIB), an include directory or absolute library path in its INTERFACE_ "
                       "properties, a file of the export's import-check list, or a path a set_and_check() "
                       "or if(NOT EXISTS) ... FATAL_ERROR test requires. Consumers see find_package fail "
                       "(\"The imported target ... references the file ... but this file does not exist\", "
                       "\"include could not find requested file\") or their generate step fail (\"Imported "
                       "target ... includes non-existent path\"). A missing soname link next to an imported "
                       "library (IMPORTED_SONAME) is a warning: CMake does not check it, the consumer "
                       "builds, and its programs then fail to start. Causes are a file left out of the "
                       "package or put in another package of a split, a path computed wrongly (a missing $ "
                       "before {VAR}), or per-component Targets files included for components that were not "
                       "built, which the finding calls out. Install the file, or fix the config so that it "
                       "names only what is installed; a reference reached only on a branch that cannot be "
                       "decided statically is a note.",
        .example = "/usr/lib/x86_64-linux-gnu/cmake/rocm_smi/rocm_smi-config.cmake\n"
                   "  error[cmake-missing-file]: rocm_smiTargets.cmake:73: INTERFACE_INCLUDE_DIRECTORIES of "
                   "oam names /usr/{OAM_NAME}/include, which does not exist\n"
                   "    fix: install the directory, or export the path the package installs to "
                   "($<INSTALL_INTERFACE:...> relative to the prefix)",
        .cause_fields = "package via",
        .cause = "{package}: {n} {via} files not installed, under {referenced/}[; files of those names are "
                 "in {installed_at/}] ({files})",
        .fields = "package:string line:integer in:path cmake_stage?:string referenced:path via:string "
                  "target?:string component?:string component_library?:path|null asked_component?:string "
                  "installed_at?:path undecided?:string",
    },
    // Error: find_package(<Name> CONFIG REQUIRED) stops the consumer's configure; a failure reached only on
    // an undecided branch is a note. lintian, auditwheel: none.
    {
        .id = "cmake-config-error",
        .severity = Severity::kError,
        .title = "a CMake package config stops a consumer's configure (FATAL_ERROR, <Name>_FOUND set to "
                 "FALSE, a parse error)",
        .fix = "fix the config so that find_package(<Name> CONFIG REQUIRED) succeeds on the installed tree",
        .key_fields = "package in line",
        .explanation = "Loading the package config as find_package(<Name> CONFIG REQUIRED) would stop the "
                       "consumer's configure: the config reaches message(FATAL_ERROR) or "
                       "message(SEND_ERROR), sets <Name>_FOUND to FALSE, cannot be parsed, or its version "
                       "file declares the package unsuitable. The consumer sees \"CMake Error at ...\" with "
                       "the config's message, or \"Found package configuration file ... but it set "
                       "<Name>_FOUND to FALSE so package \"<Name>\" is considered to be NOT FOUND\", and "
                       "cannot configure at all. Typical causes are configs edited by a packaging script (a "
                       "substitution that broke a quote or a path), checks for tools or paths of the build "
                       "machine, and components required by default that were not built. A FATAL_ERROR that "
                       "follows a failed EXISTS test is reported as the missing file (cmake-missing-file) "
                       "instead, and a failure reached only on a branch that cannot be decided statically "
                       "(it depends on execute_process, the environment or the consumer's compiler) is a "
                       "note. Fix the config so that find_package(<Name> CONFIG REQUIRED) succeeds on the "
                       "installed tree.",
        .example = "/opt/rocm-6.2.0/lib/cmake/rocblas/rocblas-config.cmake\n"
                   "  error[cmake-config-error]: rocblas-targets.cmake:87: find_package(rocblas) fails: "
                   "parse error: unterminated quoted argument\n"
                   "    fix: fix the config so that find_package(<Name> CONFIG REQUIRED) succeeds on the "
                   "installed tree",
        .cause_fields = "package",
        .cause = "{package}: find_package({package}) fails ({files})",
        .fields = "package:string line:integer in:path cmake_stage:string asked_component?:string "
                  "missing_files?:[path] undecided?:string",
    },
};

// Where a consumer's CMake fails on a missing file: a file it includes, and one a check of
// the package (set_and_check, the import check of generated Targets files) tests, at
// configure; an include directory when the consumer generates; a library nobody checked
// when it builds. A soname link fails no CMake stage, only the programs.
std::string_view StageOf(const CMakeReference& r) {
  if (!r.checked_by_cmake) return {};
  if (r.via == "include" || r.stops_configure || r.via == "set_and_check" || r.via == "import-check-files")
    return "configure";
  if (r.via.starts_with("INTERFACE_INCLUDE") || r.via.starts_with("INTERFACE_SYSTEM_INCLUDE"))
    return "generate";
  if (r.via.starts_with("IMPORTED_") || r.via.starts_with("INTERFACE_")) return "build";
  return "configure";
}

std::string Hint(const CMakeReference& r, const std::string& package) {
  if (!r.component.empty())
    return "the config includes a Targets file for component " + r.component + ", which was not built (" +
           (r.component_library.empty() ? "its library is not installed either"
                                        : "yet its library " + r.component_library + " is installed") +
           "): build the component, or include its Targets file only for the components that were built";
  if (r.via == "include")
    return "install " + std::string(BaseName(r.path)) + " with " + package +
           ", or include it with OPTIONAL when the package works without it";
  if (r.via.starts_with("IMPORTED_SONAME"))
    return "install the soname link " + std::string(BaseName(r.path)) +
           " next to the library: programs linked "
           "against " +
           r.target + " ask the loader for it";
  if (r.via.starts_with("IMPORTED_"))
    return "install the library of " + r.target + ", or stop exporting the target when it is not built";
  if (r.via.starts_with("INTERFACE_"))
    return "install the directory, or export the path the package installs to ($<INSTALL_INTERFACE:...> "
           "relative to the prefix)";
  return "install it, or correct the path the config computes";
}

void Run(const TreeInput& in, FindingSink& sink) {
  std::map<std::string, InstalledElsewhere> elsewhere;  // by the PATH the config was found under
  for (const AuditedPackage& ap : in.cmake_packages) {
    const CMakePackage& p = ap.package;
    const std::string& file = in.files[ap.file]->walked.path;
    for (const CMakeReference& r : p.evaluation.references) {
      if (r.exists || r.optional) continue;
      Finding f = MakeFinding(kRules[0], file);
      f.SetMessage(SiteText(r.site) + ": " + r.via + (r.target.empty() ? "" : " of " + r.target) + " names " +
                   HostPath(r.path) + ", which does not exist");
      if (!r.component.empty()) f.message += " (the Targets file of component " + r.component + ")";
      if (!r.checked_by_cmake) {
        f.severity = Severity::kWarning;
        f.message += "; CMake does not check it, the consumer's programs fail when they start";
      }
      f.SetHint(Hint(r, p.name));
      AddSiteFields(f, p.name, r.site);
      if (std::string_view stage = StageOf(r); !stage.empty()) SetCMakeStage(f, stage);
      f.fields["referenced"] = r.path;
      f.fields["via"] = r.via;
      if (!r.target.empty()) f.fields["target"] = r.target;
      if (!r.component.empty()) {
        f.fields["component"] = r.component;
        f.fields["component_library"] = r.component_library.empty()
                                            ? nlohmann::ordered_json()
                                            : nlohmann::ordered_json(r.component_library);
      }
      MarkAskedComponent(f, r.asked_component);
      const std::string& under = in.files[ap.file]->walked.prefix;
      std::string there = elsewhere.try_emplace(under, under).first->second.Find(r.path);
      if (!there.empty()) {
        f.fields["installed_at"] = there;
        f.SetHint("a file of that name is installed at " + HostPath(there) +
                  ": correct the path the config computes");
      }
      MarkUndecided(f, r.undecided);
      sink.Add(std::move(f));
    }
    for (const CMakeFailure& failure : p.evaluation.failures) {
      Finding f = MakeFinding(kRules[1], file);
      f.SetMessage(SiteText(failure.site) + ": find_package(" + p.name + ") fails: " + failure.MessageText());
      AddSiteFields(f, p.name, failure.site);
      SetCMakeStage(f, "configure");
      MarkAskedComponent(f, failure.asked_component);
      if (!failure.missing_files.empty()) f.fields["missing_files"] = failure.missing_files;
      MarkUndecided(f, failure.undecided);
      sink.Add(std::move(f));
    }
  }
}

}  // namespace

extern const Check kCMakeMissingFilesCheck{"cmake_missing_files", kRules, TreeCheck{Run}, kNeedsCMake};

}  // namespace rocm_audit
