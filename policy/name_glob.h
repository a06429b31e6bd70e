// The globs of waivers and --enable/--disable: shell patterns (fnmatch, `*` also crosses
// '/'), with the soname rule a packager expects: a pattern for a library name also
// matches its versioned names, so `librocblas.so` and `librocblas.so*` both match
// `librocblas.so.4.2`, and so does `librocblas.so.4`. A pattern matching only the exact
// name would miss the names the loader opens (a DT_NEEDED names the soname,
// librocblas.so.4), as auditwheel's --exclude did, grafting the very libraries it was told
// to leave out into the wheel.
#pragma once

#include <string_view>

namespace rocm_audit {

/// Plain fnmatch: `*`, `?` and `[...]`; `*` matches '/' too.
bool GlobMatches(std::string_view glob, std::string_view text);

/// GlobMatches against `text`, or against `text` with trailing version components dropped
/// one by one when it is a versioned library name (`libx.so.4.2`: `libx.so.4`, `libx.so`).
bool NameGlobMatches(std::string_view glob, std::string_view text);

}  // namespace rocm_audit
