#include "tests/support/terminal_output.h"

#include <nlohmann/json.hpp>

#include "tests/support/test_support.h"

namespace rocm_audit::testing {

Output RunAudit(const std::string& args, const std::string& dir) {
  TempDir t;
  Output o;
  o.status = RunCommand(
      "cd '" + dir + "' && '" ROCM_AUDIT_BINARY "' --no-progress " + args + " 2>'" + t / "err" + "'", &o.out);
  o.err = ReadAll(t / "err");
  return o;
}

std::string ControlIn(std::string_view text, bool sgr, bool tab) {
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (sgr && c == 0x1b && i + 1 < text.size() && text[i + 1] == '[') {
      const size_t end = text.find_first_not_of("0123456789;", i + 2);
      if (end != std::string_view::npos && text[end] == 'm') {
        i = end;
        continue;
      }
    }
    const bool c1 = c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                    static_cast<unsigned char>(text[i + 1]) < 0xa0;
    if ((c < 0x20 && c != '\n' && !(tab && c == '\t')) || c == 0x7f || c == 0x9b || c1)
      return "byte " + std::to_string(c) + " at " + std::to_string(i) + ": ..." +
             std::string(text.substr(i < 40 ? 0 : i - 40, 80)) + "...";
  }
  return "";
}

bool IsUtf8(const std::string& text) {
  try {
    (void)nlohmann::json(text).dump();  // strict: throws on a byte that is not UTF-8
    return true;
  } catch (const nlohmann::json::exception&) { return false; }
}

}  // namespace rocm_audit::testing
