#include "reports/json_element.h"

namespace rocm_audit {

std::string DumpJson(const nlohmann::ordered_json& j) {
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

// JSON strings hold no raw newline, so every '\n' of a dump starts one of its lines.
void AppendIndented(std::string_view dumped, std::string_view indent, std::string* out) {
  out->append(indent);
  for (char c : dumped) {
    *out += c;
    if (c == '\n') out->append(indent);
  }
}

std::string ArrayElementText(const nlohmann::ordered_json& element) {
  const std::string dumped = DumpJson(element);
  std::string text;
  // Once, here: reserving in AppendIndented would reallocate at every call on a growing text
  // (a library's bundles are appended one by one).
  text.reserve(dumped.size() + dumped.size() / 4 + 8);
  AppendIndented(dumped, "    ", &text);
  return text;
}

}  // namespace rocm_audit
