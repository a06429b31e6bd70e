// The report as users see it: every path in it (files, closures, the declared path fields
// of findings, and the paths messages name) shown through the run's PathDisplay. The
// policy has keyed the findings before this, from the host paths.
#pragma once

#include "audit/fs/path_display.h"
#include "audit/model/report.h"

namespace rocm_audit {

void ShowPaths(const PathDisplay& display, Report* report);
/// One file's facts that the report does not keep (streamed to a sink: engine/audit_sinks.h).
void ShowPaths(const PathDisplay& display, FileFacts& facts);

}  // namespace rocm_audit
