// The one output path of every command (an audit, `diff`): how a finished report is
// rendered in the format asked for, escaped, written to --output or the standard output,
// and mapped to the exit status; and how every error reaches stderr. Names in reports and
// messages come from the audited files and the command line, and reach a terminal or a
// parser: the text report and every message as display text, the JSON formats as lossless
// text, HTML and JUnit by their renderers (audit/model/byte_text.h).
#pragma once

#include <functional>
#include <ostream>
#include <string_view>

#include "audit/model/report.h"
#include "cli/options.h"

namespace rocm_audit {

class JsonFileStage;

/// "rocm-audit: error: MESSAGE" on stderr, MESSAGE as display text; returns 2.
int Error(std::string_view message);

/// 1 when the report has findings at --fail-on or above (and not --fail-on none), else 0.
int FindingsStatus(const Report& report, const CliOptions& o);

/// Writes `report` in o.format (the text report's names escaped here, in place), JSON as it
/// is built with its files[] from `stage` when the run rendered them as it went. Returns
/// FindingsStatus(), or 2 (with the message) when the output cannot be written.
int PrintReport(Report& report, const CliOptions& o, const JsonFileStage* stage = nullptr);

/// Writes what `write` writes (false: a message of its own in `error`) to --output or the
/// standard output; returns `status`, or 2 with the message when it cannot be written.
int PrintOutput(const CliOptions& o, const std::function<bool(std::ostream&, std::string*)>& write,
                int status);

}  // namespace rocm_audit
