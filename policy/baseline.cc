#include "policy/baseline.h"

#include "audit/model/byte_text.h"
#include "audit/model/json_strings.h"
#include "policy/finding_key.h"

namespace rocm_audit {
namespace {

using Json = nlohmann::ordered_json;

// A finding's JSON members that are not the check's own fields (json_report.cc).
bool IsEnvelopeMember(const std::string& name) {
  return name == "check" || name == "severity" || name == "file" || name == "message" || name == "hint" ||
         name == "key" || name == "suppressed" || name == "repeated";
}

std::string KeyOf(const Json& j, std::span<const Rule> rules, const std::vector<std::string>& inputs) {
  if (j.contains("key") && j["key"].is_string()) return j["key"].get<std::string>();
  Finding f;
  f.check = j.value("check", "");
  f.file = j.value("file", "");
  for (const auto& [name, value] : j.items())
    if (!IsEnvelopeMember(name)) f.fields[name] = value;
  std::string_view key_fields;
  for (const Rule& r : rules)
    if (r.id == f.check) key_fields = r.key_fields;
  return FindingKey(f, key_fields, inputs);
}

}  // namespace

bool ReadBaselineKeys(std::string_view json_text, std::span<const Rule> rules, std::vector<std::string>* keys,
                      std::string* error) {
  Json report = Json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (report.is_discarded() || !report.is_object()) {
    *error = "not JSON";
    return false;
  }
  // Any member may have any type in a file handed to --baseline: a wrong one is an error
  // message, never an exception out of here (nlohmann's value() throws on
  // "schema_version": {...}).
  try {
    const Json* version = report.contains("schema_version") ? &report["schema_version"] : nullptr;
    if (!version || !version->is_number_integer() || version->get<int64_t>() != 1 ||
        !report.contains("findings") || !report["findings"].is_array()) {
      *error = "not a rocm-audit JSON report (schema_version 1, --format json)";
      return false;
    }
    std::vector<std::string> inputs;
    if (report.contains("inputs") && report["inputs"].is_object() && report["inputs"].contains("paths") &&
        report["inputs"]["paths"].is_array())
      for (const Json& p : report["inputs"]["paths"])
        if (p.is_string()) inputs.push_back(BytesOfLosslessText(p.get<std::string>()));
    // Keys are made of the bytes the report's lossless text stands for.
    for (const Json& f : report["findings"])
      if (f.is_object()) keys->push_back(KeyOf(MapJsonStrings(f, BytesOfLosslessText), rules, inputs));
  } catch (const Json::exception& e) {
    *error = std::string("a member is not as --format json writes it: ") + e.what();
    return false;
  }
  return true;
}

}  // namespace rocm_audit
