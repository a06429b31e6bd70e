#include "checks/library_resolution.h"

#include <algorithm>

#include "checks/registry.h"

namespace rocm_audit {

Finding MakeFinding(const FileContext& ctx, std::string_view check) {
  return MakeFinding(ctx.file.path, check);
}

Finding MakeFinding(const std::string& file, std::string_view check) {
  Finding f;
  f.check = std::string(check);
  f.severity = FindCheck(check)->severity;
  f.file = file;
  return f;
}

void CheckLibraryResolution(const FileContext& ctx, const UnboundBehindLibrary& unbound,
                            FindingSink& sink) {
  for (const UnresolvedLibrary& u : ctx.closure.unresolved) {
    auto hidden = unbound.find(u.name);
    // A library missing deep in the closure is reported where it can be fixed: on the
    // object that needs it, when this run audits that object too. It stays here when it
    // hides this file's own symbols, and in files[].unresolved in any case.
    bool direct = std::find(u.needed_by.begin(), u.needed_by.end(), 0) != u.needed_by.end();
    bool requester_audited = std::all_of(u.needed_by.begin(), u.needed_by.end(), [&](int i) {
      return ctx.run.audited_real_paths.count(ctx.closure.objects[i].real_path) > 0;
    });
    if (!direct && requester_audited && hidden == unbound.end()) continue;
    Finding f = MakeFinding(ctx, "unresolved-library");
    nlohmann::ordered_json needed_by = nlohmann::ordered_json::array();
    for (int i : u.needed_by) needed_by.push_back(ctx.closure.objects[i].path);
    if (!u.parse_error.empty()) {
      f.message = u.name + " was found at " + u.resolution.path + " but cannot be loaded: " +
                  u.parse_error;
      f.hint = "replace the corrupt file " + u.resolution.path;
    } else if (!u.resolution.error.empty()) {
      f.message = u.name + " cannot be loaded: " + u.resolution.error;
      f.hint = "a non-ELF file (linker script? wrong package?) shadows the real library";
    } else {
      std::string who = u.needed_by.empty() ? ctx.file.path
                                            : std::string(BaseName(ctx.closure.objects[u.needed_by[0]].path));
      f.message = u.name + " needed by " + who + (direct ? " (direct dependency)" : "") + " is not found in " +
                  std::to_string(u.resolution.searched.size()) + " searched directories";
    }
    f.fields["library"] = u.name;
    f.fields["needed_by"] = needed_by;
    nlohmann::ordered_json searched = nlohmann::ordered_json::array();
    for (const SearchStep& s : u.resolution.searched)
      searched.push_back({{"directory", ctx.loader.fs.DisplayPath(s.directory)},
                          {"source", s.source},
                          {"outcome", s.outcome}});
    f.fields["searched"] = searched;
    f.fields["unbound_symbols"] = hidden == unbound.end() ? std::vector<std::string>() : hidden->second;
    if (hidden != unbound.end())
      f.message += "; " + std::to_string(hidden->second.size()) +
                   (hidden->second.size() == 1 ? " undefined symbol of " : " undefined symbols of ") +
                   std::string(BaseName(ctx.file.path)) + " cannot bind until it is found";
    sink.Add(std::move(f));
  }
}

}  // namespace rocm_audit
