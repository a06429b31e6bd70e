// The report as a terminal shows it: every string in it that came from an audited file or
// the file system (paths, messages, hints, findings' fields, each file's facts) as
// DisplayText (audit/model/byte_text.h), each at most kMaxFindingStringBytes before it is
// escaped (audit/model/finding.h), so that the text report and --tree write no
// control character and no invalid UTF-8 of their own data, with colour or without. The
// renderers then add only their own layout and colours. Done in place, once, just before
// rendering: the report is the largest thing a run holds, and a copy would double it.
#pragma once

#include "audit/model/report.h"

namespace rocm_audit {

void EscapeForDisplay(Report* report);
void EscapeForDisplay(FileFacts& facts);

}  // namespace rocm_audit
