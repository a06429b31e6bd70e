// The globs of waivers and --enable/--disable: shell patterns (fnmatch, `*` also crosses
// '/'), with the soname rule a packager expects: a pattern for a library name also
// matches its versioned names, so `librocblas.so` and `librocblas.so*` both match
// `librocblas.so.4.2`, and so does `librocblas.so.4`. A pattern matching only the exact
// name would miss the names the loader opens (a DT_NEEDED names the soname,
// librocblas.so.4), as auditwheel's --exclude did, grafting the very libraries it was told
// to leave out into the wheel.
//
// A glob is written as the JSON report writes names (audit/model/byte_text.h): "\xNN"
// stands for the byte NN, so a name that is not UTF-8 is waived by the text the report
// shows for it, and by nothing else.
#pragma once

#include <string>
#include <string_view>

namespace rocm_audit {

/// `written` with each "\xNN" made the byte NN, matched as itself (escaped for fnmatch);
/// fnmatch's own escapes ("\*", "\\") stay as they are.
std::string GlobOfWrittenText(std::string_view written);

/// Plain fnmatch: `*`, `?` and `[...]`; `*` matches '/' too.
bool GlobMatches(std::string_view glob, std::string_view text);

/// GlobMatches against `text`, or against `text` with trailing version components dropped
/// one by one when it is a versioned library name (`libx.so.4.2`: `libx.so.4`, `libx.so`).
bool NameGlobMatches(std::string_view glob, std::string_view text);

}  // namespace rocm_audit
