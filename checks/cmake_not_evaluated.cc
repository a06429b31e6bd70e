// cmake-not-evaluated: what the static evaluation of a package config recorded and did
// not evaluate (commands it does not know, commands it never runs such as
// execute_process, limits reached), so that a clean result says how much it covers.
#include <map>

#include "checks/cmake_package_site.h"
#include "checks/registry.h"

namespace rocm_audit {
namespace {

constexpr Rule kRules[] = {
    // Note: no defect of the package; it says how much of the config the other CMake checks covered. lintian,
    // auditwheel: none.
    {
        .id = "cmake-not-evaluated",
        .severity = Severity::kNote,
        .title = "parts of a CMake package config were recorded but not evaluated (never run, or unknown to "
                 "rocm-audit)",
        .fix = "nothing to fix in the package when the commands are ones that must not run at install time "
               "(execute_process); otherwise report the command to rocm-audit",
        .key_fields = "package",
        .explanation = "rocm-audit evaluates package configs without running CMake, so some commands are "
                       "recorded instead of evaluated: commands that run programs or probe the consumer's "
                       "system (execute_process, try_compile, try_run), commands that would change the "
                       "consumer's build or files (file(WRITE), install, configure_file, "
                       "add_custom_target), commands or sub-commands rocm-audit does not implement, "
                       "includes of files it cannot locate, and loops or files past its bounds. This note "
                       "is not a defect of the package: it says how much of the config the other CMake "
                       "checks covered, since values computed by those commands are unknown and branches "
                       "that depend on them yield notes instead of errors. When the commands are ones a "
                       "config legitimately runs at find_package time there is nothing to fix; when one is "
                       "plain CMake that rocm-audit should understand, report it to rocm-audit. The message "
                       "lists the first four places and reasons; the JSON field commands lists them all.",
        .example = "/opt/rocm-6.2.0/lib/cmake/hip/hip-config.cmake\n"
                   "  note[cmake-not-evaluated]: hip: 1 command not evaluated: hip-config-amd.cmake:97 "
                   "never run (/opt/rocm-6.2.0/lib/llvm/bin/clang++); its output is unknown\n"
                   "    fix: nothing to fix in the package when the commands are ones that must not run at "
                   "install time (execute_process); otherwise report the command to rocm-audit",
        .cause_fields = "package",
        .cause = "{package}: commands recorded, not evaluated ({files})",
        .fields = "package:string commands:[{command:string in:path line:integer reason:string}]",
    },
};

constexpr size_t kListed = 4;

void Run(const TreeInput& in, FindingSink& sink) {
  for (const AuditedPackage& ap : in.cmake_packages) {
    const auto& skipped = ap.package.evaluation.skipped;
    if (skipped.empty()) continue;
    Finding f = MakeFinding(kRules[0], in.files[ap.file]->walked.path);
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

extern const Check kCMakeNotEvaluatedCheck{"cmake_not_evaluated", kRules, TreeCheck{Run}, kNeedsCMake};

}  // namespace rocm_audit
