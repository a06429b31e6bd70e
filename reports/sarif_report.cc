#include "reports/sarif_report.h"

#include <cctype>

namespace rocm_audit {
namespace {

// SARIF levels are "error" | "warning" | "note": the same words as our severities.
std::string Level(Severity s) { return std::string(SeverityName(s)); }

// artifactLocation.uri must be a URI reference: percent-encode what is not a path char.
std::string FileUri(const std::string& path) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : path) {
    if (std::isalnum(c) || std::string_view("/-._~+").find(static_cast<char>(c)) != std::string_view::npos) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

}  // namespace

std::string RenderSarif(const Report& report) {
  using Json = nlohmann::ordered_json;
  Json rules = Json::array();
  for (const Rule& c : report.rules)
    rules.push_back({{"id", std::string(c.id)},
                     {"shortDescription", {{"text", std::string(c.title)}}},
                     {"help", {{"text", std::string(c.fix)}}},
                     {"defaultConfiguration", {{"level", Level(c.severity)}}}});
  Json results = Json::array();
  for (const Finding& f : report.findings) {
    Json r = {{"ruleId", f.check},
              {"level", Level(f.severity)},
              {"message", {{"text", f.message + (f.hint.empty() ? "" : "\nfix: " + f.hint)}}},
              {"locations",
               Json::array({{{"physicalLocation", {{"artifactLocation", {{"uri", FileUri(f.file)}}}}}}})}};
    if (!f.fields.empty()) r["properties"] = f.fields;
    // An accepted finding stays a result, suppressed with the waiver's reason, as code
    // scanning dashboards expect.
    if (f.suppressed)
      r["suppressions"] =
          Json::array({{{"kind", "external"},
                        {"status", "accepted"},
                        {"justification", f.suppressed->reason + " (" + f.suppressed->source + ")"}}});
    results.push_back(std::move(r));
  }
  Json out = {
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs",
       Json::array(
           {{{"tool",
              {{"driver", {{"name", "rocm-audit"}, {"version", ROCM_AUDIT_VERSION}, {"rules", rules}}}}},
             {"results", results}}})}};
  return out.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace rocm_audit
