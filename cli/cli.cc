#include "cli/cli.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>

#include "audit/fs/path.h"
#include "checks/registry.h"
#include "cli/options.h"
#include "cli/path_display.h"
#include "cli/progress_line.h"
#include "cli/shown_report.h"
#include "reports/closure_tree.h"
#include "reports/gitlab_report.h"
#include "reports/html_report.h"
#include "reports/json_file_stage.h"
#include "reports/json_report.h"
#include "reports/junit_report.h"
#include "reports/rule_catalog.h"
#include "reports/sarif_report.h"
#include "reports/text_report.h"

namespace rocm_audit {
namespace {

std::string Render(const Report& report, const CliOptions& o, int exit_code) {
  switch (o.format) {
    case OutputFormat::kJson: return RenderJson(report, o.fail_on, o.fail_on_none, o.json_files);
    case OutputFormat::kSarif: return RenderSarif(report, {o.base_uri, exit_code});
    case OutputFormat::kJunit: return RenderJunit(report, o.fail_on, o.fail_on_none);
    case OutputFormat::kGitlab: return RenderGitlab(report, o.base_uri);
    case OutputFormat::kHtml: return RenderHtml(report);
    case OutputFormat::kText: break;
  }
  TextOptions t;
  t.color = o.color == "always" || (o.color == "auto" && o.output.empty() && isatty(STDOUT_FILENO));
  t.quiet = o.quiet;
  t.min_severity = o.fail_on_none ? Severity::kError : o.fail_on;
  t.arch_matrix = o.arch_matrix;
  t.verbose = o.verbose;
  return RenderText(report, t);
}

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
  std::cerr << "rocm-audit: error: --explain " << o.explain << ": no such check (see --list-checks)\n";
  return 2;
}

// How the report names files (design.md §5). Inside packages, files are named
// PACKAGE:/member (the unpacked tree alone: as installed).
PathDisplay ShownPaths(const CliOptions& o, const ReportInputs& inputs) {
  PathDisplay display = MakePathDisplay(o.audit.paths, inputs.roots, o.absolute_paths);
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

// Reports that render no file's facts but as files[] of the JSON report do not keep them:
// JSON renders each file's element as its facts come (into `stage`), SARIF, JUnit and
// GitLab only count the files. Text, HTML, --tree and --files findings (which needs every
// finding first) keep them.
void StreamFileFacts(CliOptions& o, std::optional<JsonFileStage>& stage,
                     std::optional<PathDisplay>& display) {
  const bool json = o.format == OutputFormat::kJson;
  if (!o.tree.empty() || o.format == OutputFormat::kText || o.format == OutputFormat::kHtml ||
      (json && o.json_files == JsonFiles::kFindings))
    return;
  if (!json || o.json_files == JsonFiles::kNone) {
    o.audit.file_facts_sink = [](const ReportInputs&) -> FileFactsSink { return [](size_t, FileFacts&&) {}; };
    return;
  }
  stage.emplace(o.audit.spill_dirs);
  o.audit.file_facts_sink = [&o, &stage, &display](const ReportInputs& inputs) -> FileFactsSink {
    display = ShownPaths(o, inputs);
    return [&stage, &display](size_t index, FileFacts&& facts) {
      ShowPaths(*display, facts);
      stage->Add(index, facts);
    };
  };
}

}  // namespace

int RunCli(int argc, char** argv) {
  CliOptions o;
  std::string error;
  if (!ParseArguments(std::vector<std::string>(argv + 1, argv + argc), &o, &error)) {
    std::cerr << "rocm-audit: error: " << error << "\n";
    return 2;
  }
  if (std::optional<int> status = AnswerWithoutAuditing(o)) return *status;
  for (const Rule& r : KnownRules())
    if (!RuleEnabled(o.policy, r.id)) o.audit.disabled_rules.push_back(std::string(r.id));
  const char* tmp = std::getenv("TMPDIR");
  if (tmp) o.audit.checks.tmpdir = tmp;
  // /var/tmp is on disk where /tmp is a tmpfs, which spilling refuses (Debian 13's /tmp).
  if (!o.spill_dir_given) o.audit.spill_dirs = {tmp && *tmp ? tmp : "/tmp", "/var/tmp"};
  ProgressLine progress;
  if (o.progress && isatty(STDERR_FILENO))
    o.audit.progress = [&](const char* phase, size_t done, size_t total) {
      progress.Update(phase, done, total);
    };
  std::optional<JsonFileStage> stage;
  std::optional<PathDisplay> stage_display;
  StreamFileFacts(o, stage, stage_display);
  Report report;
  o.audit.release_at_exit = true;  // the process ends after this one audit
  bool ok = RunAudit(o.audit, &report, &error);
  progress.Clear();
  if (!ok) {
    std::cerr << "rocm-audit: error: " << error << "\n";
    return 2;
  }
  report.rules.push_back(kUnusedWaiverRule);
  report.inputs.suppress_files = o.suppress_files;
  report.inputs.baseline_file = o.policy.baseline_file;
  ApplyPolicy(o.policy, &report);
  ArrangeDeclaredFields(&report);
  const int status = !o.fail_on_none && report.HasFindingsAtOrAbove(o.fail_on) ? 1 : 0;
  // Dashboards resolve paths against the repository (--base-uri) from the host's paths;
  // everything else names files as design.md §5 says.
  PathDisplay display = ShownPaths(o, report.inputs);
  if (o.format != OutputFormat::kSarif && o.format != OutputFormat::kGitlab) ShowPaths(display, &report);
  std::string tree;
  if (!o.tree.empty()) {
    for (const FileFacts& f : report.files)
      if (f.path == o.tree || f.path == display.Show(o.tree)) tree = RenderClosureTree(f);
    if (tree.empty()) {
      std::cerr << "rocm-audit: error: --tree " << o.tree
                << ": not an executable or shared library ld.so would load, among the audited files\n";
      return 2;
    }
  }
  std::ofstream file;
  if (!o.output.empty()) file.open(o.output, std::ios::binary);
  std::ostream& out = o.output.empty() ? std::cout : file;
  const std::string where = o.output.empty() ? "the standard output" : o.output;
  if (!out) {  // before the report is built for nothing
    std::cerr << "rocm-audit: error: cannot write " << where << "\n";
    return 2;
  }
  if (!o.tree.empty())
    out << tree;
  else if (o.format == OutputFormat::kJson) {
    // Written as it is built; files[] from the stage when the run rendered it as it went.
    if (!WriteJson(report, o.fail_on, o.fail_on_none, o.json_files, out, stage ? &*stage : nullptr)) {
      std::cerr << "rocm-audit: error: cannot read back the report's files[] from its spill file\n";
      return 2;
    }
  } else
    out << Render(report, o, status);
  out << std::flush;
  if (!out) {
    std::cerr << "rocm-audit: error: cannot write " << where << "\n";
    return 2;
  }
  return status;
}

}  // namespace rocm_audit
