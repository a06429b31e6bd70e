#include "cli/shown_report.h"

#include <map>

#include "audit/model/field_spec.h"

namespace rocm_audit {
namespace {

void ShowAll(const PathDisplay& display, std::vector<std::string>& paths) {
  for (std::string& p : paths) p = display.Show(p);
}

}  // namespace

void ShowPaths(const PathDisplay& display, FileFacts& f) {
  f.path = display.Show(f.path);
  if (f.closure) {
    ShowAll(display, f.closure->objects);
    for (ClosureNode& n : f.closure->nodes) n.path = display.Show(n.path);
  }
  if (f.device_stack) ShowAll(display, f.device_stack->libraries);
  if (f.plugin && !f.plugin->host_path.empty()) f.plugin->host_path = display.Show(f.plugin->host_path);
  if (f.arch_data && !f.arch_data->dir.empty()) f.arch_data->dir = display.Show(f.arch_data->dir);
  if (f.cmake) {
    ShowAll(display, f.cmake->includes);
    for (CMakeTargetFacts& t : f.cmake->targets) {
      ShowAll(display, t.locations);
      ShowAll(display, t.include_dirs);
    }
    for (CMakeDependencyFacts& d : f.cmake->dependencies) {
      if (!d.found.empty()) d.found = display.Show(d.found);
      if (!d.via.empty()) d.via = display.Show(d.via);
    }
    for (CMakeMissingFacts& m : f.cmake->missing) {
      m.path = display.Show(m.path);
      m.file = display.Show(m.file);
    }
  }
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
