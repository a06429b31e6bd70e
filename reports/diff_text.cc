#include "reports/diff_text.h"

#include <nlohmann/json.hpp>

namespace rocm_audit {
namespace {

using Json = nlohmann::ordered_json;

// At most this many items of a list a finding's lines show; the rest are counted.
constexpr size_t kShown = 5;

std::string Few(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size() && i < kShown; ++i) out += (i ? ", " : "") + items[i];
  if (items.size() > kShown) out += " and " + std::to_string(items.size() - kShown) + " more";
  return out;
}

std::vector<std::string> Strings(const Json& list) {
  std::vector<std::string> out;
  if (list.is_array())
    for (const Json& v : list)
      if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

std::string ScopeLines(const Json& groups) {
  std::string out;
  size_t shown = 0;
  for (const Json& g : groups) {
    if (!g.is_object()) continue;
    if (++shown > kShown) {
      out += "    and " + std::to_string(groups.size() - kShown) + " more scopes\n";
      break;
    }
    const std::string scope = g.value("scope", "");
    out += "    removed" + (scope.empty() ? std::string() : " in " + scope) + ": " +
           Few(Strings(g.contains("names") ? g["names"] : Json())) + "\n";
  }
  return out;
}

std::string HitLines(const Json& hits) {
  if (!hits.is_array() || hits.empty()) return "";
  std::vector<std::string> files;
  for (const Json& h : hits) {
    if (h.is_string()) files.push_back(h.get<std::string>());
    if (h.is_object() && h.contains("file") && h["file"].is_string())
      files.push_back(h["file"].get<std::string>() + " (" + Few(Strings(h.value("symbols", Json()))) + ")");
  }
  std::string out;
  for (size_t i = 0; i < files.size() && i < kShown; ++i) out += "    hit: " + files[i] + "\n";
  if (files.size() > kShown) out += "    hit: and " + std::to_string(files.size() - kShown) + " more files\n";
  return out;
}

}  // namespace

std::string SourceOf(const PackageVerdict& v) {
  if (v.source.empty() || (v.source == v.package && v.source_version.empty())) return "";
  return " (source " + v.source + (v.source_version.empty() ? "" : " " + v.source_version) + ")";
}

std::string VerdictLines(const Report& report) {
  if (report.verdicts.empty()) return "";
  std::string out = "Verdict per package of NEW (OLD -> NEW version):\n";
  for (const PackageVerdict& v : report.verdicts) {
    out += "  " + v.package + SourceOf(v);
    if (!v.old_version.empty() || !v.new_version.empty())
      out += " " + (v.old_version.empty() ? std::string("(none)") : v.old_version) + " -> " +
             (v.new_version.empty() ? std::string("(gone)") : v.new_version);
    out += ": ";
    if (v.needs.empty()) out += "compatible";
    for (size_t i = 0; i < v.needs.size(); ++i) out += (i ? "; " : "") + v.needs[i];
    if (v.new_defects) out += "; " + std::to_string(v.new_defects) + " new defect(s)";
    out += "\n";
  }
  return out;
}

std::string DiffDetailLines(const Finding& f) {
  std::string out;
  if (auto g = f.fields.find("removed_by_scope"); g != f.fields.end() && g->is_array()) out += ScopeLines(*g);
  if (f.check == "symbols-removed" || f.check == "soname-changed" || f.check == "library-removed")
    if (auto h = f.fields.find("hit"); h != f.fields.end()) out += HitLines(*h);
  return out;
}

}  // namespace rocm_audit
