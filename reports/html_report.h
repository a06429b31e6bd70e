// The report as one self-contained HTML page, for a person opening a CI artifact: the
// summary (the text report's summary line, as figures), the root causes most severe first,
// every finding in a table that filters by check, severity and file (accepted findings
// marked with why, shown on request), for `diff` what OLD had and NEW has side by side
// (diff_sides.h), and the GPU arch coverage matrix. Its CSS and script
// are inline and its Content-Security-Policy admits only those two (by hash), so it loads
// nothing; the filter can be set from the URL fragment
// (report.html#check=undefined-symbol&severity=error&file=libMIOpen&accepted=1).
// Every path and message is escaped; control characters and bytes that are not UTF-8 are
// shown as \xNN, as the text report shows them (audit/model/byte_text.h).
#pragma once

#include <string>
#include <string_view>

#include "audit/model/report.h"

namespace rocm_audit {

std::string RenderHtml(const Report& report);

/// `text` as HTML text or attribute value: DisplayText with its line breaks kept (no control
/// character HTML or XML forbids, no invalid UTF-8), and & < > " ' escaped.
std::string HtmlEscape(std::string_view text);

}  // namespace rocm_audit
