// The rocm-audit command: parses arguments, runs the audit, writes the report and maps
// the result to the exit status (0 clean, 1 findings at --fail-on or above, 2 error).
#pragma once

namespace rocm_audit {

/// The whole program; returns the exit status.
int RunCli(int argc, char** argv);

}  // namespace rocm_audit
