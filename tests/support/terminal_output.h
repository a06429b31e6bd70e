// What the hostile-name tests read of rocm-audit's output: its streams apart, and the first
// byte of it a terminal would act on.
#pragma once

#include <string>
#include <string_view>

namespace rocm_audit::testing {

struct Output {
  int status = -1;
  std::string out, err;
};

/// rocm-audit with `args` (shell words) in `dir`, its standard output and error apart.
Output RunAudit(const std::string& args, const std::string& dir = ".");

/// The first byte a terminal would act on, as "byte N at I: ...context...", or "": C0
/// controls but the newline (and the tab when `tab`), DEL, a raw 0x9B (CSI), and C1
/// controls (U+0080..U+009F); with `sgr`, the renderer's own colour sequences
/// (ESC [ digits and ';' m) are not counted.
std::string ControlIn(std::string_view text, bool sgr = false, bool tab = false);

/// Whether `text` is UTF-8 throughout.
bool IsUtf8(const std::string& text);

}  // namespace rocm_audit::testing
