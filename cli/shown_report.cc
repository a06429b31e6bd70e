#include "cli/shown_report.h"

#include <map>

#include "audit/model/field_spec.h"
#include "audit/model/file_paths.h"

namespace rocm_audit {

void ShowPaths(const PathDisplay& display, FileFacts& f) {
  ForEachPath(f, [&](std::string& path) { path = display.Show(path); });
}

void ShowPaths(const PathDisplay& display, Report* report) {
  std::map<std::string_view, std::vector<FieldSpec>> specs;
  for (const Rule& r : report->rules) specs.emplace(r.id, FieldSpecs(r.fields));
  auto show = [&](const std::string& p) { return display.Show(p); };
  for (Finding& f : report->findings) {
    f.file = display.Show(f.file);
    f.message = display.ShowIn(std::move(f.message));
    f.hint = display.ShowIn(std::move(f.hint));
    if (auto it = specs.find(f.check); it != specs.end())
      for (const FieldSpec& spec : it->second)
        if (auto field = f.fields.find(spec.name); field != f.fields.end())
          ForEachPath(*field, spec.type, show);
  }
  for (FileFacts& f : report->files) ShowPaths(display, f);
}

}  // namespace rocm_audit
