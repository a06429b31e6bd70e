// The audit, the default command: each PATH audited, the report written as --format asks.
#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <optional>

#include "audit/fs/path.h"
#include "audit/fs/path_display.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/progress_line.h"
#include "cli/report_output.h"
#include "cli/shown_report.h"
#include "engine/audit.h"
#include "engine/known_rules.h"
#include "reports/closure_tree.h"
#include "reports/display_escape.h"
#include "reports/json_file_stage.h"
#include "reports/rule_catalog.h"

namespace rocm_audit {
namespace {

// --version, --list-checks and --explain answer without auditing anything.
std::optional<int> AnswerWithoutAuditing(const CliOptions& o) {
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

}  // namespace

int RunAudit(CliOptions& o) {
  if (std::optional<int> status = AnswerWithoutAuditing(o)) return *status;
  std::string error;
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
