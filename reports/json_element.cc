#include "reports/json_element.h"

#include "audit/model/byte_text.h"
#include "audit/model/json_strings.h"

namespace rocm_audit {
namespace {

using Json = nlohmann::ordered_json;

bool NeedsLossless(const Json& j) {
  if (j.is_string()) return NeedsLosslessText(j.get_ref<const std::string&>());
  if (j.is_object()) {
    for (const auto& [name, value] : j.items())
      if (NeedsLosslessText(name) || NeedsLossless(value)) return true;
  } else if (j.is_array()) {
    for (const Json& value : j)
      if (NeedsLossless(value)) return true;
  }
  return false;
}

}  // namespace

std::string DumpJson(const nlohmann::ordered_json& j) {
  // Strict: after LosslessText every string is UTF-8, and a byte that is not would be a bug.
  constexpr auto kStrict = Json::error_handler_t::strict;
  if (!NeedsLossless(j)) return EscapeMisreadInJson(j.dump(2, ' ', false, kStrict));  // a normal tree
  return EscapeMisreadInJson(MapJsonStrings(j, LosslessText).dump(2, ' ', false, kStrict));
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
