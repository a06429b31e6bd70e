// The findings of a JSON report the real binary wrote, for tests that assert on what a
// finding is (its check and its fields) rather than on the report's text: the messages are
// English for people, held whole by the goldens (tests/golden/), and free to change.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace rocm_audit::testing {

/// The elements of `report`'s findings[] of `check`, in order.
inline std::vector<nlohmann::json> JsonFindingsOf(const nlohmann::json& report, std::string_view check) {
  std::vector<nlohmann::json> out;
  if (auto it = report.find("findings"); it != report.end() && it->is_array())
    for (const nlohmann::json& f : *it)
      if (f.is_object() && f.value("check", "") == check) out.push_back(f);
  return out;
}

/// The checks `report`'s findings[] name.
inline std::set<std::string> ChecksIn(const nlohmann::json& report) {
  std::set<std::string> out;
  if (auto it = report.find("findings"); it != report.end() && it->is_array())
    for (const nlohmann::json& f : *it)
      if (f.is_object()) out.insert(f.value("check", ""));
  return out;
}

/// Field `name` of each of `report`'s findings of `check` that has it, as text.
inline std::vector<std::string> FieldOfEach(const nlohmann::json& report, std::string_view check,
                                            const std::string& name) {
  std::vector<std::string> out;
  for (const nlohmann::json& f : JsonFindingsOf(report, check))
    if (auto it = f.find(name); it != f.end() && it->is_string()) out.push_back(it->get<std::string>());
  return out;
}

}  // namespace rocm_audit::testing
