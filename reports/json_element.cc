#include "reports/json_element.h"

namespace rocm_audit {

std::string DumpJson(const nlohmann::ordered_json& j) {
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

// JSON strings hold no raw newline, so every '\n' of a dumped element starts one of its lines.
std::string ArrayElementText(const nlohmann::ordered_json& element) {
  const std::string one = DumpJson(element);
  std::string text;
  text.reserve(one.size() + one.size() / 4 + 8);
  text += "    ";
  for (char c : one) {
    text += c;
    if (c == '\n') text += "    ";
  }
  return text;
}

}  // namespace rocm_audit
