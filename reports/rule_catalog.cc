#include "reports/rule_catalog.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

namespace rocm_audit {
namespace {

std::vector<std::string> Words(std::string_view text) {
  std::vector<std::string> out;
  std::istringstream in{std::string(text)};
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// `text` filled to `width` columns, each line after `indent`.
std::string Wrapped(std::string_view text, const std::string& indent, size_t width = 88) {
  std::string out, line;
  for (const std::string& w : Words(text)) {
    if (!line.empty() && indent.size() + line.size() + 1 + w.size() > width) {
      out += indent + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + w;
  }
  if (!line.empty()) out += indent + line + "\n";
  return out;
}

}  // namespace

std::string RenderRuleTable(std::span<const Rule> rules) {
  std::string out;
  for (const Rule& r : rules) {
    char line[64];
    std::snprintf(line, sizeof line, "%-24s %-8s ", std::string(r.id).c_str(),
                  std::string(SeverityName(r.severity)).c_str());
    out += line + std::string(r.title) + "\n";
  }
  return out;
}

std::string RenderRuleJson(std::span<const Rule> rules) {
  using Json = nlohmann::ordered_json;
  Json checks = Json::array();
  for (const Rule& r : rules)
    checks.push_back({{"id", std::string(r.id)},
                      {"severity", std::string(SeverityName(r.severity))},
                      {"title", std::string(r.title)},
                      {"fix", std::string(r.fix)},
                      {"key_fields", FieldNames(r.key_fields)},
                      {"explanation", std::string(r.explanation)},
                      {"example", std::string(r.example)}});
  Json out = {{"schema_version", 1}, {"checks", checks}};
  return out.dump(2) + "\n";
}

std::string RenderExplanation(const Rule& r) {
  std::string out = std::string(r.id) + " (" + std::string(SeverityName(r.severity)) +
                    "): " + std::string(r.title) + "\n\n";
  out += Wrapped(r.explanation, "");
  if (!r.example.empty()) {
    out += "\nExample:\n";
    std::istringstream lines{std::string(r.example)};
    for (std::string line; std::getline(lines, line);) out += "  " + line + "\n";
  }
  out += "\nFix:\n" + Wrapped(r.fix, "  ");
  std::string key = "the check, the file's path below the audited input";
  for (const std::string& w : FieldNames(r.key_fields)) key += ", " + w;
  out += "\nA finding is known across runs (--baseline) by " + key + ".\n";
  out += "To accept one, add a line to a --suppress file:\n  " + std::string(r.id) + "  PATH-GLOB" +
         (r.key_fields.empty() ? "" : "  [KEY-GLOB]") + "  # why it is accepted\n";
  return out;
}

}  // namespace rocm_audit
