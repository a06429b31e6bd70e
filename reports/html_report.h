// The report as one self-contained HTML page, for a person opening a CI artifact: the
// summary (the text report's summary line, as figures), the root causes most severe first,
// every finding in a table that filters by check, severity and file (accepted findings
// marked with why, shown on request), and the GPU arch coverage matrix. Its CSS and script
// are inline and its Content-Security-Policy admits only those two (by hash), so it loads
// nothing; the filter can be set from the URL fragment
// (report.html#check=undefined-symbol&severity=error&file=libMIOpen&accepted=1).
// Every path and message is escaped; bytes that are not UTF-8 become U+FFFD.
#pragma once

#include <string>
#include <string_view>

#include "audit/model/report.h"

namespace rocm_audit {

std::string RenderHtml(const Report& report);

/// `text` as HTML text or attribute value: well-formed UTF-8, each invalid byte and each
/// control character HTML forbids replaced by U+FFFD, and & < > " ' escaped.
std::string HtmlEscape(std::string_view text);

}  // namespace rocm_audit
