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
  auto show_in_text = [&](std::string_view p) { return display.ShowInText(p); };
  auto words = [](std::string_view w) { return std::string(w); };
  for (Finding& f : report->findings) {
    f.file = display.Show(f.file);
    f.message = FillPaths(f.message, f.message_paths, show_in_text, words);
    f.hint = FillPaths(f.hint, f.hint_paths, show_in_text, words);
    f.message_paths.clear();
    f.hint_paths.clear();
    if (auto it = specs.find(f.check); it != specs.end())
      for (const FieldSpec& spec : it->second)
        if (auto field = f.fields.find(spec.name); field != f.fields.end())
          ForEachPath(*field, spec.type, show);
  }
  for (FileFacts& f : report->files) ShowPaths(display, f);
}

}  // namespace rocm_audit
