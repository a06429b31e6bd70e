#include "cli/report_output.h"

#include <unistd.h>

#include <fstream>
#include <iostream>

#include "audit/model/byte_text.h"
#include "reports/display_escape.h"
#include "reports/gitlab_report.h"
#include "reports/html_report.h"
#include "reports/json_report.h"
#include "reports/junit_report.h"
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

}  // namespace

// Every message on stderr: its names come from the command line and the audited files,
// and reach a terminal (audit/model/byte_text.h).
int Error(std::string_view message) {
  std::cerr << "rocm-audit: error: " << DisplayText(message) << "\n";
  return 2;
}

int FindingsStatus(const Report& report, const CliOptions& o) {
  return !o.fail_on_none && report.HasFindingsAtOrAbove(o.fail_on) ? 1 : 0;
}

int PrintOutput(const CliOptions& o, const std::function<bool(std::ostream&, std::string*)>& write,
                int status) {
  std::ofstream file;
  if (!o.output.empty()) file.open(o.output, std::ios::binary);
  std::ostream& out = o.output.empty() ? std::cout : file;
  const std::string where = o.output.empty() ? "the standard output" : o.output;
  if (!out) return Error("cannot write " + where);  // before the report is built for nothing
  std::string error;
  if (!write(out, &error)) return Error(error);
  out << std::flush;
  if (!out) return Error("cannot write " + where);
  return status;
}

int PrintReport(Report& report, const CliOptions& o, const JsonFileStage* stage) {
  const int status = FindingsStatus(report, o);
  // The names are the files'; the layout and colours the renderer's.
  if (o.format == OutputFormat::kText) EscapeForDisplay(&report);
  return PrintOutput(
      o,
      [&](std::ostream& out, std::string* error) {
        if (o.format != OutputFormat::kJson) {
          out << Render(report, o, status);
          return true;
        }
        // Written as it is built; files[] from the stage when the run rendered it as it went.
        if (WriteJson(report, o.fail_on, o.fail_on_none, o.json_files, out, stage)) return true;
        *error = "cannot read back the report's files[] from its spill file";
        return false;
      },
      status);
}

}  // namespace rocm_audit
