// `diff OLD NEW` or `diff --from OLD... --to NEW...`: two versions compared.
#include <filesystem>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/report_output.h"
#include "diff/diff.h"

namespace rocm_audit {
namespace {

// A dashboard (SARIF, GitLab) opens the file a finding names, so there each finding names
// the file on this machine: below the directory of the side it is about (OLD for a fixed
// finding and a file OLD could not read, NEW for the rest). A package's members, a set's or
// a report's files have no such place, and keep their installed paths.
void PlaceOnThisMachine(const std::vector<std::string>& old_side, const std::vector<std::string>& new_side,
                        Report* report) {
  std::error_code ec;
  const bool old_dir = old_side.size() == 1 && std::filesystem::is_directory(old_side[0], ec);
  const bool new_dir = new_side.size() == 1 && std::filesystem::is_directory(new_side[0], ec);
  for (Finding& f : report->findings) {
    const bool fixed =
        f.check == "fixed-finding" || (f.check == "side-unreadable" && f.fields.value("side", "") == "old");
    if (f.file.empty() || f.file[0] == '/' || !(fixed ? old_dir : new_dir)) continue;
    f.file = (std::filesystem::path(fixed ? old_side[0] : new_side[0]) / f.file).lexically_normal().string();
  }
}

}  // namespace

// The comparison's report, its paths already below each side's input, printed as an
// audit's is.
int RunDiff(CliOptions& o) {
  Report report;
  std::string error;
  if (!Diff(o.audit, o.diff_old, o.diff_new, &report, &error, o.consumer_indexes)) return Error(error);
  if (o.format == OutputFormat::kSarif || o.format == OutputFormat::kGitlab)
    PlaceOnThisMachine(o.diff_old, o.diff_new, &report);
  CliOptions shown = o;
  shown.json_files = JsonFiles::kNone;  // a comparison lists no audited file
  return PrintReport(report, shown);
}

}  // namespace rocm_audit
