#include "reports/json_report.h"

#include <algorithm>
#include <functional>
#include <map>
#include <ostream>
#include <set>
#include <sstream>
#include <thread>

#include "audit/support/parallel.h"
#include "reports/file_facts_json.h"
#include "reports/json_element.h"
#include "reports/json_file_stage.h"

namespace rocm_audit {
namespace {

using Json = nlohmann::ordered_json;

// files[] is most of a report, and the longest serial work of a run if built on one
// thread, and findings[] grows with the tree too: both are built and dumped a batch of
// elements at a time (files on the workers), and each batch is written out before the next
// is built. The report text of the whole tree is never held: a whole-tree string, its
// copies or a whole findings[] tree would make the run's peak memory grow with the tree.
// (A run that streams its files' facts renders files[] as it goes: JsonFileStage.)
constexpr size_t kElementsPerBatch = 256;

void WriteArray(size_t count, unsigned jobs, const std::function<std::string(size_t)>& element,
                std::ostream& out) {
  if (count == 0) {
    out << "[]";
    return;
  }
  out << "[\n";
  std::vector<std::string> parts;
  for (size_t first = 0; first < count; first += kElementsPerBatch) {
    const size_t n = std::min(kElementsPerBatch, count - first);
    parts.assign(n, std::string());
    ParallelFor(n, jobs, [&](size_t i) {
      parts[i] = element(first + i);
      parts[i] += first + i + 1 < count ? ",\n" : "\n";
    });
    for (const std::string& part : parts) out << part;
  }
  out << "  ]";
}

Json FindingToJson(const Finding& f) {
  Json j = {{"check", f.check},
            {"severity", std::string(SeverityName(f.severity))},
            {"file", f.file},
            {"message", f.message},
            {"hint", f.hint}};
  for (const auto& [key, value] : f.fields.items()) j[key] = value;
  if (!f.key.empty()) j["key"] = f.key;
  if (f.repeated) j["repeated"] = {{"count", f.repeated->count}, {"numbers", f.repeated->numbers}};
  if (f.suppressed)
    j["suppressed"] = {
        {"kind", f.suppressed->kind}, {"reason", f.suppressed->reason}, {"source", f.suppressed->source}};
  return j;
}

// What the run was asked to audit, in which world, and with which policy files.
Json InputsJson(const Report& report, Severity fail_on, bool fail_on_none) {
  Json inputs;
  inputs["paths"] = report.inputs.paths;
  // A diff's sides; an audit's report has neither field.
  if (!report.inputs.old_paths.empty() || !report.inputs.new_paths.empty()) {
    inputs["old"] = report.inputs.old_paths;
    inputs["new"] = report.inputs.new_paths;
    inputs["sides_differ"] = report.inputs.sides_differ;
  }
  inputs["root"] = report.inputs.roots.empty() ? Json(nullptr) : Json(report.inputs.roots[0]);
  inputs["roots"] = report.inputs.roots;
  // The installed world (design.md §1.1): null when the audited paths are judged as given.
  if (report.inputs.installed_world)
    inputs["world"] = {{"base", report.inputs.base},
                       {"siblings", report.inputs.siblings},
                       {"replacing", report.inputs.replacing}};
  else
    inputs["world"] = nullptr;
  inputs["library_path"] = report.inputs.library_path;
  inputs["ld_so_conf_dirs"] = report.inputs.ld_so_conf_dirs;
  inputs["fail_on"] = fail_on_none ? "none" : std::string(SeverityName(fail_on));

  inputs["suppress"] = report.inputs.suppress_files;
  inputs["baseline"] =
      report.inputs.baseline_file.empty() ? Json(nullptr) : Json(report.inputs.baseline_file);
  Json packages = Json::array();
  for (const InputPackage& p : report.inputs.packages)
    packages.push_back({{"file", p.file},
                        {"format", p.format},
                        {"name", p.name},
                        {"version", p.version.empty() ? Json(nullptr) : Json(p.version)},
                        {"depends", p.depends},
                        {"source", p.source.empty() ? Json(nullptr) : Json(p.source)},
                        {"source_version", p.source_version.empty() ? Json(nullptr) : Json(p.source_version)},
                        {"conflicts", p.conflicts},
                        {"breaks", p.breaks},
                        {"replaces", p.replaces}});
  inputs["packages"] = std::move(packages);
  return inputs;
}

}  // namespace

bool WriteJson(const Report& report, Severity fail_on, bool fail_on_none, JsonFiles which, std::ostream& os,
               const JsonFileStage* staged) {
  Json out;
  out["schema_version"] = 1;
  out["tool"] = {{"name", "rocm-audit"}, {"version", ROCM_AUDIT_VERSION}};
  out["inputs"] = InputsJson(report, fail_on, fail_on_none);
  // `diff` only: the verdict per package of NEW, before the findings it is made of.
  if (!report.verdicts.empty()) {
    Json verdicts = Json::array();
    for (const PackageVerdict& v : report.verdicts)
      verdicts.push_back(
          {{"package", v.package},
           {"old_version", v.old_version.empty() ? Json(nullptr) : Json(v.old_version)},
           {"new_version", v.new_version.empty() ? Json(nullptr) : Json(v.new_version)},
           {"source", v.source.empty() ? Json(nullptr) : Json(v.source)},
           {"source_version", v.source_version.empty() ? Json(nullptr) : Json(v.source_version)},
           {"file", v.file.empty() ? Json(nullptr) : Json(v.file)},
           {"compatible", v.needs.empty()},
           {"severity", v.needs.empty() ? Json(nullptr) : Json(std::string(SeverityName(v.severity)))},
           {"needs", v.needs},
           {"new_defects", v.new_defects}});
    out["verdicts"] = std::move(verdicts);
  }

  // The summary counts the findings that count; accepted ones are under "suppressed".
  Json by_check = Json::object();
  size_t counted = 0;
  for (const Finding& f : report.findings) {
    if (f.suppressed) continue;
    by_check[f.check] = by_check.value(f.check, 0) + 1;
    ++counted;
  }
  // files_by_kind counts the walk's kinds (every ELF file is "elf"), audited_by_kind files[].kind.
  const std::map<std::string, size_t> audited_by_kind = report.AuditedByKind();
  out["summary"] = {
      {"files_audited", report.FilesAudited()},
      {"files_by_kind", report.counts},
      {"audited_by_kind", audited_by_kind},
      {"findings", counted},
      {"by_severity",
       {{"error", report.Count(Severity::kError)},
        {"warning", report.Count(Severity::kWarning)},
        {"note", report.Count(Severity::kNote)}}},
      {"by_check", by_check},
      {"failed", !fail_on_none && report.HasFindingsAtOrAbove(fail_on)},
      {"suppressed",
       {{"waiver", report.CountSuppressed("waiver")}, {"baseline", report.CountSuppressed("baseline")}}},
      {"disabled_checks", report.disabled},
  };
  std::vector<const FileFacts*> files;
  std::set<std::string> with_findings;
  for (const Finding& f : report.findings) with_findings.insert(f.file);
  for (const FileFacts& f : report.files)
    if (which == JsonFiles::kAll || (which == JsonFiles::kFindings && with_findings.count(f.path)))
      files.push_back(&f);
  // findings and files are the last members: their empty arrays close the document, and
  // are written in their place.
  out["findings"] = Json::array();
  out["files"] = Json::array();
  const std::string doc = DumpJson(out);
  const std::string_view empty_last = "\"findings\": [],\n  \"files\": []\n}";
  os << std::string_view(doc).substr(0, doc.size() - empty_last.size()) << "\"findings\": ";
  WriteArray(
      report.findings.size(), 1,
      [&](size_t i) { return ArrayElementText(FindingToJson(report.findings[i])); }, os);
  os << ",\n  \"files\": ";
  bool ok = true;
  if (staged)
    ok = staged->WriteArray(os);
  else
    WriteArray(
        files.size(), std::thread::hardware_concurrency(),
        [&](size_t i) { return FileFactsElementText(*files[i]); }, os);
  os << "\n}\n";
  return ok;
}

std::string RenderJson(const Report& report, Severity fail_on, bool fail_on_none, JsonFiles which) {
  std::ostringstream out;
  (void)WriteJson(report, fail_on, fail_on_none, which, out);  // no stage to read back: cannot fail
  return std::move(out).str();
}

}  // namespace rocm_audit
