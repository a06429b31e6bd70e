// The rocm-audit command line: parses arguments, runs the audit, writes the report and
// maps the result to the exit status (0 clean, 1 findings at --fail-on or above, 2 error).
#pragma once

#include <string>
#include <vector>

#include "audit/audit_run.h"

namespace rocm_audit {

enum class OutputFormat { kText, kJson, kSarif, kJunit };

struct CliOptions {
  AuditOptions audit;
  OutputFormat format = OutputFormat::kText;
  std::string output;  ///< empty = stdout
  Severity fail_on = Severity::kError;
  bool fail_on_none = false;
  bool quiet = false;
  std::string color = "auto";  ///< auto | always | never
  bool progress = true;
  bool show_help = false;
  bool show_version = false;
  bool list_checks = false;
  bool arch_matrix = false;   ///< text: append the files x processors table
};

/// Returns false with `error` set for a usage error.
bool ParseArguments(const std::vector<std::string>& args, CliOptions* options, std::string* error);

std::string HelpText();

/// The whole program; returns the exit status.
int RunCli(int argc, char** argv);

}  // namespace rocm_audit
