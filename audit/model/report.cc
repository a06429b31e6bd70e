#include "audit/model/report.h"

#include <algorithm>
#include <map>

#include "audit/model/field_spec.h"

namespace rocm_audit {

size_t Report::FilesAudited() const {
  size_t n = files.size();
  for (const auto& [kind, count] : streamed_by_kind) n += count;
  return n;
}

std::map<std::string, size_t> Report::AuditedByKind() const {
  std::map<std::string, size_t> by_kind = streamed_by_kind;
  for (const FileFacts& f : files) ++by_kind[f.kind];
  return by_kind;
}

size_t Report::Count(Severity s) const {
  return std::count_if(findings.begin(), findings.end(),
                       [&](const Finding& f) { return !f.suppressed && f.severity == s; });
}

size_t Report::CountSuppressed(std::string_view kind) const {
  return std::count_if(findings.begin(), findings.end(),
                       [&](const Finding& f) { return f.suppressed && f.suppressed->kind == kind; });
}

bool Report::HasFindingsAtOrAbove(Severity level) const {
  return std::any_of(findings.begin(), findings.end(),
                     [&](const Finding& f) { return !f.suppressed && f.severity >= level; });
}

void ArrangeDeclaredFields(Report* report) {
  std::map<std::string_view, std::vector<FieldSpec>> specs;
  for (const Rule& r : report->rules) specs.emplace(r.id, FieldSpecs(r.fields));
  for (Finding& f : report->findings) {
    auto it = specs.find(f.check);
    if (it == specs.end()) continue;
    nlohmann::ordered_json arranged = nlohmann::ordered_json::object();
    for (const FieldSpec& spec : it->second)
      if (auto field = f.fields.find(spec.name); field != f.fields.end())
        arranged[spec.name] = std::move(*field);
    for (auto& [name, value] : f.fields.items())
      if (!arranged.contains(name)) arranged[name] = std::move(value);
    f.fields = std::move(arranged);
  }
}

}  // namespace rocm_audit
