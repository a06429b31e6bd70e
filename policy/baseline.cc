#include "policy/baseline.h"

#include <stdexcept>

#include "audit/model/report_reader.h"
#include "policy/finding_key.h"

namespace rocm_audit {
namespace {

using Json = nlohmann::json;

std::string String(const Json& j, const char* name) {
  auto it = j.find(name);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// A finding's key as the run that wrote it made it, else as FindingKey makes it of the
// check, the file and the rule's key fields (none but those are read: the key is made of
// them alone).
std::string KeyOf(const Json& j, std::span<const Rule> rules, const std::vector<std::string>& inputs) {
  if (auto key = j.find("key"); key != j.end() && key->is_string()) return key->get<std::string>();
  if (auto check = j.find("check"); check != j.end() && !check->is_string())
    throw std::invalid_argument("\"check\" is not a string");
  if (auto file = j.find("file"); file != j.end() && !file->is_string())
    throw std::invalid_argument("\"file\" is not a string");
  Finding f;
  f.check = String(j, "check");
  f.file = String(j, "file");
  std::string_view key_fields;
  for (const Rule& r : rules)
    if (r.id == f.check) key_fields = r.key_fields;
  for (const std::string& name : FieldNames(key_fields))
    if (auto value = j.find(name); value != j.end()) f.fields[name] = *value;
  return FindingKey(f, key_fields, inputs);
}

}  // namespace

bool ReadBaselineKeys(std::string_view json_text, std::span<const Rule> rules, std::vector<std::string>* keys,
                      std::string* error) {
  // Its strings come back as the bytes the report's lossless text stands for, keys too.
  Json report;
  if (!ReadJsonReport(json_text, &report, error)) return false;
  auto findings = report.find("findings");
  if (findings == report.end() || !findings->is_array()) {
    *error = "not a rocm-audit JSON report (schema_version 1, --format json): no findings[]";
    return false;
  }
  // Any member may have any type in a file handed to --baseline: a wrong one is an error
  // message, never an exception out of here.
  try {
    std::vector<std::string> inputs;
    if (auto in = report.find("inputs"); in != report.end() && in->is_object())
      if (auto paths = in->find("paths"); paths != in->end() && paths->is_array())
        for (const Json& p : *paths)
          if (p.is_string()) inputs.push_back(p.get<std::string>());
    for (const Json& f : *findings)
      if (f.is_object()) keys->push_back(KeyOf(f, rules, inputs));
  } catch (const std::exception& e) {
    *error = std::string("a member is not as --format json writes it: ") + e.what();
    return false;
  }
  return true;
}

}  // namespace rocm_audit
