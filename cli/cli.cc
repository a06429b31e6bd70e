#include "cli/cli.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>

#include "audit/fs/path.h"
#include "audit/fs/path_display.h"
#include "audit/model/byte_text.h"
#include "cli/options.h"
#include "cli/progress_line.h"
#include "cli/report_output.h"
#include "cli/shown_report.h"
#include "diff/diff.h"
#include "engine/audit.h"
#include "engine/consumer_index.h"
#include "engine/known_rules.h"
#include "reports/closure_tree.h"
#include "reports/display_escape.h"
#include "reports/json_file_stage.h"
#include "reports/rule_catalog.h"

namespace rocm_audit {
namespace {

// --help, --version, --list-checks and --explain answer without auditing anything.
std::optional<int> AnswerWithoutAuditing(const CliOptions& o) {
  if (o.show_help) {
    std::cout << HelpText();
    return 0;
  }
  if (o.show_version) {
    std::cout << "rocm-audit " << ROCM_AUDIT_VERSION << "\n";
    return 0;
  }
  const std::vector<Rule> rules = KnownRules();
  if (o.list_checks) {
    std::cout << (o.format == OutputFormat::kJson ? RenderRuleJson(rules) : RenderRuleTable(rules));
    return 0;
  }
  if (o.explain.empty()) return std::nullopt;
  for (const Rule& r : rules)
    if (r.id == o.explain) {
      std::cout << RenderExplanation(r);
      return 0;
    }
  return Error("--explain " + o.explain + ": no such check (see --list-checks)");
}

// How the report names files (design.md §5). Inside packages, files are named
// PACKAGE:/member (the unpacked tree alone: as installed).
PathDisplay ShownPaths(const CliOptions& o, const ReportInputs& inputs) {
  // The base packages are installed over holds none of the PATHs: they are named as given.
  std::vector<std::string> roots = inputs.roots;
  if (!inputs.unpacked_into.empty())
    std::erase_if(roots, [&](const std::string& r) {
      return std::find(inputs.base.begin(), inputs.base.end(), r) != inputs.base.end();
    });
  PathDisplay display = MakePathDisplay(o.audit.paths, roots, o.absolute_paths);
  const std::string& unpacked = inputs.unpacked_into;
  if (!unpacked.empty()) {
    const auto& packages = inputs.packages;
    display.Map(unpacked, packages.size() == 1 ? std::string(BaseName(packages[0].file)) + ":/" : "/");
    for (const InputPackage& p : packages)
      for (const std::string& m : p.members)
        display.Map(unpacked + "/" + m, std::string(BaseName(p.file)) + ":/" + m);
  }
  return display;
}

// What the command line takes while the audit runs: the progress line, the names the
// report will show (made once, when the inputs are known), and each file's facts for the
// reports that render no file's facts but as files[] of the JSON report (JSON renders each
// element into the stage as it comes; SARIF, JUnit and GitLab only count the files). Text,
// HTML, --tree and --files findings (which needs every finding first) keep the facts.
class CliSinks : public AuditSinks {
 public:
  explicit CliSinks(const CliOptions& o) : o_(o), show_progress_(o.progress && isatty(STDERR_FILENO)) {
    const bool json = o.format == OutputFormat::kJson;
    streams_ = o.tree.empty() && o.format != OutputFormat::kText && o.format != OutputFormat::kHtml &&
               !(json && o.json_files == JsonFiles::kFindings);
    if (streams_ && json && o.json_files != JsonFiles::kNone) stage_.emplace(o.audit.spill_dirs);
  }

  bool TakesFileFacts(const ReportInputs& inputs) override {
    display_ = ShownPaths(o_, inputs);
    return streams_;
  }
  bool DrawsLoadGraph() const override { return !o_.tree.empty(); }  // only --tree draws it
  void FileFactsReady(size_t index, FileFacts&& facts) override {
    if (!stage_) return;  // counted by the report, rendered nowhere
    ShowPaths(*display_, facts);
    stage_->Add(index, facts);
  }
  void Progress(const char* phase, size_t done, size_t total) override {
    if (show_progress_) progress_.Update(phase, done, total);
  }

  void ClearProgress() { progress_.Clear(); }
  const PathDisplay& display() const { return *display_; }
  JsonFileStage* stage() { return stage_ ? &*stage_ : nullptr; }

 private:
  const CliOptions& o_;
  const bool show_progress_;
  bool streams_ = false;
  ProgressLine progress_;
  std::optional<PathDisplay> display_;
  std::optional<JsonFileStage> stage_;
};

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

// `diff OLD NEW` or `diff --from OLD... --to NEW...`: the comparison's report, its paths
// already below each side's input, printed as an audit's is.
int RunDiff(const CliOptions& o) {
  Report report;
  std::string error;
  if (!Diff(o.audit, o.diff_old, o.diff_new, &report, &error, o.consumer_indexes)) return Error(error);
  if (o.format == OutputFormat::kSarif || o.format == OutputFormat::kGitlab)
    PlaceOnThisMachine(o.diff_old, o.diff_new, &report);
  CliOptions shown = o;
  shown.json_files = JsonFiles::kNone;  // a comparison lists no audited file
  return PrintReport(report, shown);
}

// `index PACKAGE...`: the consumer index on --output or the standard output; what a
// package refused is said on stderr, and the status is 1.
int RunIndex(const CliOptions& o) {
  std::vector<IndexProblem> refused;
  const int status = PrintOutput(
      o,
      [&](std::ostream& out, std::string* error) {
        return IndexPackages(o.audit.paths, o.audit.unpack, o.audit.jobs, out, &refused, error);
      },
      0);
  for (const IndexProblem& p : refused)
    std::cerr << "rocm-audit: " << DisplayText(p.package + ": " + p.message) << "\n";
  return status == 0 && !refused.empty() ? 1 : status;
}

}  // namespace

int RunCli(int argc, char** argv) {
  CliOptions o;
  std::string error;
  if (!ParseArguments(std::vector<std::string>(argv + 1, argv + argc), &o, &error)) return Error(error);
  if (std::optional<int> status = AnswerWithoutAuditing(o)) return *status;
  const char* tmp = std::getenv("TMPDIR");
  if (tmp) o.audit.checks.tmpdir = tmp;
  // /var/tmp is on disk where /tmp is a tmpfs, which spilling refuses (Debian 13's /tmp).
  if (!o.spill_dir_given) o.audit.spill_dirs = {tmp && *tmp ? tmp : "/tmp", "/var/tmp"};
  if (o.diff) return RunDiff(o);
  if (o.index) return RunIndex(o);
  o.audit.release_at_exit = true;  // the process ends after this one audit
  CliSinks sinks(o);
  Report report;
  bool ok = Audit(o.audit, sinks, &report, &error);
  sinks.ClearProgress();
  if (!ok) return Error(error);
  // Dashboards resolve paths against the repository (--base-uri) from the host's paths;
  // everything else names files as design.md §5 says.
  const PathDisplay& display = sinks.display();
  if (o.format != OutputFormat::kSarif && o.format != OutputFormat::kGitlab) ShowPaths(display, &report);
  if (o.tree.empty()) return PrintReport(report, o, sinks.stage());
  std::string tree;
  for (FileFacts& f : report.files)
    if (f.path == o.tree || f.path == display.Show(o.tree)) {
      EscapeForDisplay(f);
      tree = RenderClosureTree(f);
    }
  if (tree.empty())
    return Error("--tree " + o.tree +
                 ": not an executable or shared library ld.so would load, among the audited files");
  return PrintOutput(
      o,
      [&](std::ostream& out, std::string*) {
        out << tree;
        return true;
      },
      FindingsStatus(report, o));
}

}  // namespace rocm_audit
