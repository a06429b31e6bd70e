#include "policy/finding_key.h"

namespace rocm_audit {
namespace {

// A view: PathBelowInput tries every input for every path it is asked, and a run over a few
// hundred input files asks it for each finding and key field.
std::string_view WithoutTrailingSlashes(std::string_view s) {
  while (s.size() > 1 && s.back() == '/') s.remove_suffix(1);
  return s;
}

std::string ValueText(const nlohmann::ordered_json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

// A value naming a path under an input (cmake-missing-file's `referenced`), or anything
// else unchanged.
std::string Relativised(const std::string& value, const std::vector<std::string>& inputs) {
  std::string below = PathBelowInput(value, inputs);
  return below == value ? value : below;
}

}  // namespace

std::string PathBelowInput(const std::string& file, const std::vector<std::string>& inputs) {
  std::string best;
  size_t best_length = 0;
  for (const std::string& raw : inputs) {
    const std::string_view input = WithoutTrailingSlashes(raw);
    if (input.empty() || input.size() < best_length) continue;
    if (file == input) {
      size_t slash = file.rfind('/');
      best = slash == std::string::npos ? file : file.substr(slash + 1);
      best_length = input.size();
    } else if (input == "/" && file.size() > 1 && file[0] == '/') {
      best = file.substr(1);
      best_length = 1;
    } else if (file.size() > input.size() && file[input.size()] == '/' &&
               file.compare(0, input.size(), input) == 0) {
      best = file.substr(input.size() + 1);
      best_length = input.size();
    }
  }
  return best_length ? best : file;
}

std::vector<std::string> KeyValues(const Finding& finding, std::string_view key_fields) {
  std::vector<std::string> out;
  for (const std::string& name : FieldNames(key_fields)) {
    auto it = finding.fields.find(name);
    if (it != finding.fields.end()) out.push_back(ValueText(*it));
  }
  return out;
}

std::string FindingKey(const Finding& finding, std::string_view key_fields,
                       const std::vector<std::string>& inputs) {
  std::string key = finding.check + "|" + PathBelowInput(finding.file, inputs);
  for (const std::string& name : FieldNames(key_fields)) {
    auto it = finding.fields.find(name);
    if (it == finding.fields.end()) continue;
    key += "|" + name + "=" + Relativised(ValueText(*it), inputs);
  }
  return key;
}

}  // namespace rocm_audit
