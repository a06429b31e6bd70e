// The command line, as one table: each option's names, value, help text, the commands that
// take it (commands.h) and what it sets. --help is generated per command from the two tables
// and the man page is tested against them, so the three cannot drift apart.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli/commands.h"
#include "engine/audit_request.h"
#include "engine/known_rules.h"
#include "reports/json_report.h"

namespace rocm_audit {

enum class OutputFormat { kText, kJson, kSarif, kJunit, kGitlab, kHtml };

struct CliOptions {
  CommandBit command = kAuditCommand;  ///< the command named, else the audit
  AuditRequest audit;                  ///< what to audit, in which system, with which policy
  OutputFormat format = OutputFormat::kText;
  std::string output;    ///< empty = stdout
  std::string base_uri;  ///< sarif, gitlab: paths relative to this directory (default: the working directory)
  Severity fail_on = Severity::kError;
  bool fail_on_none = false;
  bool quiet = false;
  std::string color = "auto";  ///< auto | always | never
  bool progress = true;
  bool show_help = false;
  bool show_version = false;
  bool list_checks = false;
  std::string explain;                        ///< --explain: the rule ID to explain
  bool arch_matrix = false;                   ///< text: append the files x processors table
  bool verbose = false;                       ///< text: the whole device-code inventory
  JsonFiles json_files = JsonFiles::kAll;     ///< json: which files files[] lists
  std::string tree;                           ///< --tree FILE: draw its load closure instead of the report
  bool spill_dir_given = false;               ///< --spill-dir given (else $TMPDIR or /tmp, /var/tmp)
  bool absolute_paths = false;                ///< --absolute-paths: host paths instead of PATH-relative ones
  std::vector<std::string> consumer_indexes;  ///< `diff --consumers INDEX...`
  /// `diff --from OLD... --to NEW...` (debdiff's form): each side a set of PATHs installed
  /// together; `diff OLD NEW` fills one PATH each.
  std::vector<std::string> diff_old, diff_new;
  /// The side that PATHs go to as they are met: after --from OLD's, after --to NEW's.
  enum class DiffSide { kNone, kOld, kNew } diff_side = DiffSide::kNone;
};

struct Option {
  unsigned commands;            ///< the CommandBits of the commands that take it
  std::string_view group;       ///< the --help section
  std::string_view short_name;  ///< "-j", or ""
  std::string_view long_name;   ///< "--jobs"
  std::string_view alias;       ///< another accepted spelling ("--colour"), or ""
  std::string_view value;       ///< the value's placeholder ("N"); "" for a switch
  std::string_view help;        ///< lines separated by '\n', each at most 54 columns
  /// Applies the option; `value` is empty for a switch. False with `error` on bad input.
  bool (*apply)(const std::string& value, CliOptions* options, std::string* error);
};

std::span<const Option> AllOptions();

/// Returns false with `error` set for a usage error.
[[nodiscard]] bool ParseArguments(const std::vector<std::string>& args, CliOptions* options,
                                  std::string* error);

/// `command`'s --help, generated from its row and the options it takes.
std::string HelpText(const Command& command);

}  // namespace rocm_audit
