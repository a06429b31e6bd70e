#include "reports/gitlab_report.h"

#include "reports/dashboard_paths.h"
#include "reports/json_element.h"

namespace rocm_audit {
namespace {

// GitLab's scale is info, minor, major, critical, blocker: an error breaks the package's
// users (critical), a warning breaks some of them or the next relocation (major).
const char* GitlabSeverity(Severity s) {
  switch (s) {
    case Severity::kError: return "critical";
    case Severity::kWarning: return "major";
    case Severity::kNote: return "info";
  }
  return "info";
}

}  // namespace

std::string RenderGitlab(const Report& report, const std::string& base_dir) {
  using Json = nlohmann::ordered_json;
  const std::string base = BaseDirectory(base_dir);
  Json out = Json::array();
  for (const Finding& f : report.findings) {
    if (f.suppressed) continue;
    std::string path = PathBelowBase(f.file, base).value_or(AbsolutePath(f.file));
    out.push_back({{"description", f.message + (f.hint.empty() ? "" : " (fix: " + f.hint + ")")},
                   {"check_name", f.check},
                   {"fingerprint", Fingerprint(f)},
                   {"severity", GitlabSeverity(f.severity)},
                   {"location", {{"path", path}, {"lines", {{"begin", 1}}}}}});
  }
  return DumpJson(out) + "\n";
}

}  // namespace rocm_audit
