// cmake-consumer-scope: a package config leaves a variable in its consumer's scope that
// breaks the consumer's own targets. find_package() runs the config in the scope of the
// call, so what it sets there and does not restore is the consumer's from then on:
// CMAKE_<LANG>_STANDARD becomes the <LANG>_STANDARD of every target added after it.
#include "audit/cmake/consumer_target_defaults.h"
#include "checks/cmake_package_site.h"
#include "checks/registry.h"

namespace rocm_audit {
namespace {

constexpr Rule kRules[] = {
    // Error: CMake's generate step fails for every target of that language the consumer adds after
    // find_package(). lintian, auditwheel: none.
    {
        .id = "cmake-consumer-scope",
        .severity = Severity::kError,
        .title = "a CMake package config leaves a variable in the consumer's scope that fails the consumer's "
                 "own targets",
        .fix = "restore what the config changes: unset() the variable when it was not set before, or set it "
               "only in a function's scope",
        .key_fields = "package variable",
        .explanation =
            "find_package() runs a package's config, and the Find modules and configs it loads, in "
            "the scope of the consumer's call. A variable the config sets there and does not "
            "restore stays the consumer's. CMAKE_C_STANDARD and CMAKE_CXX_STANDARD give every "
            "target added afterwards its C_STANDARD or CXX_STANDARD, and CMake's generate step "
            "rejects a level it does not know (\"CXX_STANDARD is set to invalid value ''\"). The "
            "usual cause is a module that saves the variable, sets its own level for a check, and "
            "restores it with set(VAR \"${SAVED}\"): where the consumer had not set it, that "
            "leaves it set and empty instead of unset. A consumer that sets the variable before "
            "find_package() is not affected; one that does not (the evaluation's consumer) fails "
            "for every C or C++ target it adds after the call.",
        .example = "/usr/lib/x86_64-linux-gnu/cmake/Drogon/DrogonConfig.cmake\n"
                   "  error[cmake-consumer-scope]: DrogonConfig.cmake:81: find_package(Drogon) leaves "
                   "CMAKE_CXX_STANDARD set to \"\" in the consumer's scope: CMake's generate step rejects "
                   "every C++ target the consumer adds after it (CXX_STANDARD is set to invalid value '')\n"
                   "    fix: restore what the config changes: unset() the variable when it was not set "
                   "before, or set it only in a function's scope",
        .cause_fields = "package variable",
        .cause = "{package}: leaves {variable} invalid ({files})",
        .fields = "package:string line:integer in:path cmake_stage:string variable:string value:string",
    },
};

void Run(const TreeInput& in, FindingSink& sink) {
  for (const AuditedPackage& ap : in.cmake_packages) {
    const CMakeEvaluation& e = ap.package.evaluation;
    for (std::string_view name : kConsumerStandardVariables) {
      const CMakeValue* v = e.variables.Find(name);
      if (!v || !v->known || v->maybe_unset || IsKnownStandardLevel(name, v->text)) continue;
      const auto site = e.consumer_scope_sites.find(std::string(name));
      if (site == e.consumer_scope_sites.end()) continue;
      const std::string lang = name == "CMAKE_C_STANDARD" ? "C" : "CXX";
      Finding f = MakeFinding(kRules[0], in.files[ap.file]->walked.path);
      f.SetMessage(SiteText(site->second) + ": find_package(" + ap.package.name + ") leaves " +
                   std::string(name) + " set to \"" + v->text +
                   "\" in the consumer's scope: CMake's generate step rejects every " +
                   (lang == "C" ? "C" : "C++") + " target the consumer adds after it (" + lang +
                   "_STANDARD is set to invalid value '" + v->text + "')");
      AddSiteFields(f, ap.package.name, site->second);
      SetCMakeStage(f, "generate");
      f.fields["variable"] = std::string(name);
      f.fields["value"] = v->text;
      sink.Add(std::move(f));
    }
  }
}

}  // namespace

extern const Check kCMakeConsumerScopeCheck{"cmake_consumer_scope", kRules, TreeCheck{Run}, kNeedsCMake};

}  // namespace rocm_audit
