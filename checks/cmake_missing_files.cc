// cmake-missing-file, cmake-config-error: what would make find_package(<Name>) fail, or
// a consumer's build or programs fail, for a package config: files its list files need
// that are not installed, and the other ways it stops a consumer's configure.
#include "checks/cmake_package_site.h"
#include "checks/registry.h"

namespace rocm_audit {
namespace {

constexpr Rule kRules[] = {
    {"cmake-missing-file", Severity::kError,
     "a CMake package config needs a file that is not installed (an include()d file, an imported "
     "target's library or include directory, a set_and_check path)",
     "install the file, or change the config so that it no longer names it"},
    {"cmake-config-error", Severity::kError,
     "a CMake package config stops a consumer's configure (FATAL_ERROR, <Name>_FOUND set to FALSE, a "
     "parse error)",
     "fix the config so that find_package(<Name> CONFIG REQUIRED) succeeds on the installed tree"},
};

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
  for (const AuditedPackage& ap : in.cmake_packages) {
    const CMakePackage& p = ap.package;
    const std::string& file = in.files[ap.file].walked.path;
    for (const CMakeReference& r : p.evaluation.references) {
      if (r.exists || r.optional) continue;
      Finding f = MakeFinding(kRules[0], file);
      f.message = SiteText(r.site) + ": " + r.via + (r.target.empty() ? "" : " of " + r.target) + " names " +
                  r.path + ", which does not exist";
      if (!r.component.empty()) f.message += " (the Targets file of component " + r.component + ")";
      if (!r.checked_by_cmake) {
        f.severity = Severity::kWarning;
        f.message += "; CMake does not check it, the consumer's programs fail when they start";
      }
      f.hint = Hint(r, p.name);
      AddSiteFields(f, p.name, r.site);
      f.fields["referenced"] = r.path;
      f.fields["via"] = r.via;
      if (!r.target.empty()) f.fields["target"] = r.target;
      if (!r.component.empty()) {
        f.fields["component"] = r.component;
        f.fields["component_library"] = r.component_library.empty()
                                            ? nlohmann::ordered_json()
                                            : nlohmann::ordered_json(r.component_library);
      }
      MarkUndecided(f, r.undecided);
      sink.Add(std::move(f));
    }
    for (const CMakeFailure& failure : p.evaluation.failures) {
      Finding f = MakeFinding(kRules[1], file);
      f.message = SiteText(failure.site) + ": find_package(" + p.name + ") fails: " + failure.message;
      AddSiteFields(f, p.name, failure.site);
      MarkUndecided(f, failure.undecided);
      sink.Add(std::move(f));
    }
  }
}

}  // namespace

extern const Check kCMakeMissingFilesCheck{"cmake_missing_files", kRules, TreeCheck{Run}};

}  // namespace rocm_audit
