// cmake-not-evaluated: what the static evaluation of a package config recorded and did
// not evaluate (commands it does not know, commands it never runs such as
// execute_process, limits reached), so that a clean result says how much it covers.
#include <map>

#include "checks/cmake_package_site.h"
#include "checks/registry.h"

namespace rocm_audit {
namespace {

constexpr Rule kRules[] = {
    {"cmake-not-evaluated", Severity::kNote,
     "parts of a CMake package config were recorded but not evaluated (never run, or unknown to rocm-audit)",
     "nothing to fix in the package when the commands are ones that must not run at install time "
     "(execute_process); otherwise report the command to rocm-audit"},
};

constexpr size_t kListed = 4;

void Run(const TreeInput& in, FindingSink& sink) {
  for (const AuditedPackage& ap : in.cmake_packages) {
    const auto& skipped = ap.package.evaluation.skipped;
    if (skipped.empty()) continue;
    Finding f = MakeFinding(kRules[0], in.files[ap.file].walked.path);
    std::map<std::string, size_t> by_command;
    for (const CMakeSkipped& s : skipped) ++by_command[s.command];
    f.message = ap.package.name + ": " + std::to_string(skipped.size()) + " command" +
                (skipped.size() == 1 ? "" : "s") + " not evaluated: ";
    for (size_t k = 0; k < skipped.size() && k < kListed; ++k)
      f.message += (k ? "; " : "") + SiteText(skipped[k].site) + " " + skipped[k].reason;
    if (skipped.size() > kListed) f.message += "; and " + std::to_string(skipped.size() - kListed) + " more";
    f.fields["package"] = ap.package.name;
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const CMakeSkipped& s : skipped)
      list.push_back(
          {{"command", s.command}, {"in", s.site.file}, {"line", s.site.line}, {"reason", s.reason}});
    f.fields["commands"] = std::move(list);
    sink.Add(std::move(f));
  }
}

}  // namespace

extern const Check kCMakeNotEvaluatedCheck{"cmake_not_evaluated", kRules, TreeCheck{Run}};

}  // namespace rocm_audit
