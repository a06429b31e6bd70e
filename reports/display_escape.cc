#include "reports/display_escape.h"

#include "audit/model/byte_text.h"
#include "audit/model/finding.h"

namespace rocm_audit {
namespace {

using Json = nlohmann::ordered_json;

// Bounded first, as the JSON report bounds facts: a 100 MB name is its start on a terminal too.
void Escape(std::string& s) {
  if (s.size() > kMaxFindingStringBytes) s = BoundedText(std::move(s));
  if (NeedsDisplayText(s)) s = DisplayText(s);
}

void Escape(std::optional<std::string>& s) {
  if (s) Escape(*s);
}

void Escape(std::vector<std::string>& list) {
  for (std::string& s : list) Escape(s);
}

// Strings and member names (files_by_soname's are sonames and paths) alike.
void Escape(Json& j) {
  if (j.is_string()) {
    Escape(j.get_ref<std::string&>());
  } else if (j.is_array()) {
    for (Json& value : j) Escape(value);
  } else if (j.is_object()) {
    bool renamed = false;
    for (auto it = j.begin(); it != j.end(); ++it) renamed |= NeedsDisplayText(it.key());
    if (renamed) {
      Json out = Json::object();
      for (auto it = j.begin(); it != j.end(); ++it) out[DisplayText(it.key())] = std::move(it.value());
      j = std::move(out);
    }
    for (auto it = j.begin(); it != j.end(); ++it) Escape(it.value());
  }
}

void Escape(DeviceFacts& d) {
  for (BundleFacts& b : d.bundles) {
    Escape(b.section);
    Escape(b.member);
    for (BundleEntryFacts& e : b.entries) {
      Escape(e.id);
      Escape(e.kind);
      Escape(e.target_id);
      Escape(e.processor);
      Escape(e.features);
    }
  }
  Escape(d.targets);
  for (ServedProcessor& p : d.served) Escape(p.processor);
}

void Escape(CMakePackageFacts& c) {
  Escape(c.package);
  Escape(c.version);
  for (CMakeTargetFacts& t : c.targets) {
    Escape(t.name);
    Escape(t.type);
    Escape(t.locations);
    Escape(t.include_dirs);
  }
  Escape(c.includes);
  for (CMakeDependencyFacts& d : c.dependencies) {
    Escape(d.name);
    Escape(d.version);
    Escape(d.found);
    Escape(d.via);
  }
  for (CMakeMissingFacts& m : c.missing) {
    Escape(m.path);
    Escape(m.via);
    Escape(m.file);
  }
  Escape(c.components);
}

}  // namespace

void EscapeForDisplay(FileFacts& f) {
  Escape(f.path);
  if (f.elf) {
    Escape(f.elf->soname);
    Escape(f.elf->needed);
    Escape(f.elf->runpath);
    Escape(f.elf->rpath);
  }
  if (f.device) Escape(*f.device);
  if (f.arch_data) {
    Escape(f.arch_data->dir);
    Escape(f.arch_data->processors);
  }
  if (f.device_stack) {
    Escape(f.device_stack->libraries);
    Escape(f.device_stack->common_targets);
  }
  if (f.closure) {
    Escape(f.closure->objects);
    Escape(f.closure->unresolved);
    for (ClosureNode& n : f.closure->nodes) {
      Escape(n.path);
      Escape(n.found_by);
      for (NeededEdge& e : n.needed) {
        Escape(e.name);
        Escape(e.missing_version);
      }
    }
  }
  if (f.cmake) Escape(*f.cmake);
}

void EscapeForDisplay(Report* report) {
  for (Finding& f : report->findings) {
    Escape(f.file);
    Escape(f.message);
    Escape(f.hint);
    Escape(f.fields);
    if (f.suppressed) {
      Escape(f.suppressed->reason);
      Escape(f.suppressed->source);
    }
  }
  for (FileFacts& f : report->files) EscapeForDisplay(f);
  // A diff's verdicts and the inputs its first line names (paths, packages, SONAMEs).
  for (PackageVerdict& v : report->verdicts) {
    Escape(v.package);
    Escape(v.old_version);
    Escape(v.new_version);
    Escape(v.source);
    Escape(v.source_version);
    Escape(v.file);
    for (std::string& n : v.needs) Escape(n);
  }
  for (std::string& d : report->inputs.sides_differ) Escape(d);
}

}  // namespace rocm_audit
