#include "reports/sarif_report.h"

#include <cctype>
#include <map>

#include "reports/dashboard_paths.h"
#include "reports/diff_text.h"
#include "reports/json_element.h"

namespace rocm_audit {
namespace {

using Json = nlohmann::ordered_json;

// SARIF levels are "error" | "warning" | "note": the same words as our severities.
std::string Level(Severity s) { return std::string(SeverityName(s)); }

// A URI reference: percent-encode what is not a path character.
std::string UriPath(const std::string& path) {
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

// {"uri": "lib/libx.so", "uriBaseId": "SRCROOT"} below the base; an absolute file:// URI
// elsewhere (a relative reference must not climb out of its base).
Json ArtifactLocation(const std::string& file, const std::string& base) {
  if (auto relative = PathBelowBase(file, base))
    return {{"uri", UriPath(*relative)}, {"uriBaseId", "SRCROOT"}};
  return {{"uri", "file://" + UriPath(AbsolutePath(file))}};
}

std::string Paragraphs(std::initializer_list<std::string_view> parts, const char* separator) {
  std::string out;
  for (std::string_view p : parts) {
    if (p.empty()) continue;
    if (!out.empty()) out += separator;
    out += p;
  }
  return out;
}

Json RuleDescriptor(const Rule& r) {
  const std::string fix = "Fix: " + std::string(r.fix) + ".";
  std::string example_md;
  if (!r.example.empty()) example_md = "Example:\n\n```\n" + std::string(r.example) + "\n```";
  std::string example_text = r.example.empty() ? "" : "Example:\n" + std::string(r.example);
  std::string_view full = r.explanation.empty() ? r.title : r.explanation;
  return {{"id", std::string(r.id)},
          {"shortDescription", {{"text", std::string(r.title)}}},
          {"fullDescription", {{"text", std::string(full)}}},
          {"help",
           {{"text", Paragraphs({full, fix, example_text}, "\n\n")},
            {"markdown", Paragraphs({full, fix, example_md}, "\n\n")}}},
          {"defaultConfiguration", {{"level", Level(r.severity)}}},
          {"properties", {{"tags", Json::array({"rocm", "packaging"})}}}};
}

// `diff OLD NEW`: each package of NEW whose verdict is not "compatible", as a result of its
// own at the package file, so that a dashboard shows the gate's verdict first and a
// package's needs as one item (the findings they come from follow as their own results).
constinit const Rule kPackageVerdictRule{
    .id = "package-verdict",
    .severity = Severity::kError,
    .title = "a package of NEW that is not compatible with its OLD version: what the update needs or drops",
    .fix =
        "give the update what its verdict says it needs (a SONAME bump, a package rename, a transition), or "
        "keep what it drops",
    .explanation =
        "The verdict of `diff OLD NEW` for one package of NEW (NEW itself when it is no package): "
        "each thing the update needs before it ships (a SONAME bump for removed symbols, a package "
        "rename or transition for a changed SONAME, co-installable library packages) or drops (a "
        "library, GPU processors, CMake interface). "
        "Its level is the most severe of the findings it comes from, each of which is a result of its own.",
};

void AddVerdictResults(const Report& report, const std::string& base, Json* rules, Json* results) {
  const size_t index = rules->size();
  bool any = false;
  for (const PackageVerdict& v : report.verdicts) {
    if (v.needs.empty()) continue;
    any = true;
    std::string text = v.package + SourceOf(v);
    if (!v.old_version.empty() || !v.new_version.empty())
      text += " " + (v.old_version.empty() ? std::string("(none)") : v.old_version) + " -> " +
              (v.new_version.empty() ? std::string("(gone)") : v.new_version);
    text += ":";
    for (const std::string& n : v.needs) text += "\n" + n;
    const std::string fingerprint = "package-verdict:" + v.package;
    Json r = {{"ruleId", "package-verdict"}, {"ruleIndex", index}, {"level", Level(v.severity)}};
    r["message"] = {{"text", text}};
    if (!v.file.empty())
      r["locations"] =
          Json::array({{{"physicalLocation", {{"artifactLocation", ArtifactLocation(v.file, base)}}}}});
    r["partialFingerprints"] = {{"rocmAuditKey/v1", fingerprint}};
    r["properties"] = {{"package", v.package}, {"needs", v.needs}};
    results->push_back(std::move(r));
  }
  if (any) rules->push_back(RuleDescriptor(kPackageVerdictRule));
}

}  // namespace

std::string RenderSarif(const Report& report, const SarifOptions& options) {
  const std::string base = BaseDirectory(options.base_dir);
  Json rules = Json::array();
  std::map<std::string, size_t> rule_index;
  for (const Rule& r : report.rules) {
    rule_index[std::string(r.id)] = rules.size();
    rules.push_back(RuleDescriptor(r));
  }
  Json results = Json::array();
  AddVerdictResults(report, base, &rules, &results);
  for (const Finding& f : report.findings) {
    // The key names no machine path, time or order (policy/finding_key.h).
    const std::string fingerprint = Fingerprint(f);
    Json r = {{"ruleId", f.check}};
    if (rule_index.count(f.check)) r["ruleIndex"] = rule_index[f.check];
    r["level"] = Level(f.severity);
    r["message"] = {{"text", f.message + (f.hint.empty() ? "" : "\nfix: " + f.hint)}};
    r["locations"] = Json::array(
        {{{"physicalLocation",
           {{"artifactLocation", ArtifactLocation(f.file, base)}, {"region", {{"startLine", 1}}}}}}});
    r["partialFingerprints"] = {{"primaryLocationLineHash", fingerprint + ":1"},
                                {"rocmAuditKey/v1", fingerprint}};
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
  Json driver = {{"name", "rocm-audit"},
                 {"version", ROCM_AUDIT_VERSION},
                 {"semanticVersion", ROCM_AUDIT_VERSION},
                 {"rules", rules}};
  Json run = {
      {"tool", {{"driver", driver}}},
      {"invocations", Json::array({{{"executionSuccessful", true}, {"exitCode", options.exit_code}}})},
      {"originalUriBaseIds", {{"SRCROOT", {{"uri", "file://" + UriPath(base)}}}}},
      {"results", results}};
  // A diff's sides, in the run's property bag (SARIF 2.1.0 §3.8).
  if (!report.inputs.old_paths.empty() || !report.inputs.new_paths.empty())
    run["properties"] = {{"old", report.inputs.old_paths}, {"new", report.inputs.new_paths}};
  Json out = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
              {"version", "2.1.0"},
              {"runs", Json::array({run})}};
  return DumpJson(out) + "\n";
}

}  // namespace rocm_audit
