#include "reports/diff_sides.h"

#include <nlohmann/json.hpp>

#include "reports/html_report.h"

namespace rocm_audit {
namespace {

using Json = nlohmann::ordered_json;

// A list field as one line of code items; `none` when it is empty.
std::string Items(const Finding& f, const char* name, const char* none = "none") {
  auto it = f.fields.find(name);
  if (it == f.fields.end() || !it->is_array() || it->empty())
    return "<span class=\"hint\">" + std::string(none) + "</span>";
  std::string out;
  for (const Json& v : *it)
    if (v.is_string())
      out += (out.empty() ? "" : " ") + ("<code>" + HtmlEscape(v.get<std::string>()) + "</code>");
  return out;
}

std::string Code(const std::string& text) { return "<code>" + HtmlEscape(text) + "</code>"; }

// The files a finding hits (its `hit` field: paths, or {file, symbols}); "" for none.
std::string Hit(const Finding& f) {
  auto it = f.fields.find("hit");
  if (it == f.fields.end() || !it->is_array() || it->empty()) return "<span class=\"hint\">none seen</span>";
  std::string out;
  for (const Json& h : *it) {
    std::string item;
    if (h.is_string()) item = Code(h.get<std::string>());
    if (h.is_object() && h.contains("file") && h["file"].is_string()) {
      item = Code(h["file"].get<std::string>());
      if (auto s = h.find("symbols"); s != h.end() && s->is_array())
        for (const Json& sym : *s)
          if (sym.is_string()) item += " " + Code(sym.get<std::string>());
    }
    if (!item.empty()) out += "<div>" + item + "</div>";
  }
  return out;
}

std::string Row(const Finding& f, const std::string& what, const std::string& old_side,
                const std::string& new_side) {
  return "<tr><td class=\"file\">" + Code(f.file) + "</td><td>" + HtmlEscape(what) + "</td><td>" + old_side +
         "</td><td>" + new_side + "</td><td>" + Hit(f) + "</td></tr>\n";
}

// The removed symbols demangled, by scope (removed_by_scope), else as nm -D names them.
std::string Removed(const Finding& f) {
  auto it = f.fields.find("removed_by_scope");
  if (it == f.fields.end() || !it->is_array()) return Items(f, "removed");
  std::string out;
  for (const Json& g : *it) {
    if (!g.is_object()) continue;
    const std::string scope = g.value("scope", "");
    out += "<div>" + (scope.empty() ? std::string() : HtmlEscape(scope) + ": ");
    if (auto n = g.find("names"); n != g.end() && n->is_array())
      for (const Json& name : *n)
        if (name.is_string()) out += " <code>" + HtmlEscape(name.get<std::string>()) + "</code>";
    out += "</div>";
  }
  return out.empty() ? Items(f, "removed") : out;
}

// The rows of one finding: OLD's value and NEW's, as its fields state them.
std::string Rows(const Finding& f) {
  if (f.check == "symbols-removed")
    return Row(f, "exports of " + StringField(f, "soname"), Removed(f),
               "<span class=\"hint\">not exported</span>");
  if (f.check == "soname-changed")
    return Row(f, "SONAME", Code(StringField(f, "old_soname")), Code(StringField(f, "new_soname")));
  if (f.check == "library-removed")
    return Row(f, "library", Code(StringField(f, "soname")), "<span class=\"hint\">not provided</span>");
  if (f.check == "processors-lost")
    return Row(f, "processors (" + StringField(f, "scope") + ")", Items(f, "old_processors"),
               Items(f, "new_processors"));
  if (f.check != "cmake-interface-removed") return "";
  std::string out;
  if (auto it = f.fields.find("removed_targets"); it != f.fields.end() && !it->empty())
    out += Row(f, "imported targets", Items(f, "removed_targets"), "<span class=\"hint\">not defined</span>");
  if (auto it = f.fields.find("removed_components"); it != f.fields.end() && !it->empty())
    out += Row(f, "components", Items(f, "removed_components"), "<span class=\"hint\">not accepted</span>");
  if (auto it = f.fields.find("removed_variables"); it != f.fields.end() && !it->empty())
    out += Row(f, "result variables", Items(f, "removed_variables"), "<span class=\"hint\">not set</span>");
  if (auto it = f.fields.find("raised_dependencies"); it != f.fields.end() && it->is_array())
    for (const Json& d : *it)
      out += Row(f, "requires " + d.value("dependency", ""), Code(d.value("old_version", "")),
                 Code(d.value("new_version", "")));
  return out;
}

}  // namespace

std::string DiffSidesSection(const Report& report) {
  std::string rows;
  for (const Finding& f : report.findings)
    if (!f.suppressed) rows += Rows(f);
  if (rows.empty()) return "";
  return "<section id=\"sides-section\">\n<h2>OLD and NEW</h2>\n<table class=\"findings sides\">\n"
         "<thead><tr><th>File</th><th>What</th><th>OLD</th><th>NEW</th><th>Who is hit</th></tr></thead>\n"
         "<tbody>\n" +
         rows + "</tbody>\n</table>\n</section>\n";
}

std::string DiffVerdictSection(const Report& report) {
  if (report.verdicts.empty()) return "";
  std::string rows;
  for (const PackageVerdict& v : report.verdicts) {
    std::string verdict;
    for (const std::string& n : v.needs) verdict += "<div>" + HtmlEscape(n) + "</div>";
    if (verdict.empty()) verdict = "compatible";
    if (v.new_defects) verdict += "<div>" + std::to_string(v.new_defects) + " new defect(s)</div>";
    rows += "<tr><td class=\"file\">" + Code(v.package) + "</td><td>" + HtmlEscape(v.old_version) +
            "</td><td>" + HtmlEscape(v.new_version) + "</td><td class=\"message\">" + verdict +
            "</td></tr>\n";
  }
  return "<section id=\"verdict-section\">\n<h2>Verdict per package of NEW</h2>\n<table class=\"findings "
         "sides\">\n"
         "<thead><tr><th>Package</th><th>OLD</th><th>NEW</th><th>Verdict</th></tr></thead>\n<tbody>\n" +
         rows + "</tbody>\n</table>\n</section>\n";
}

}  // namespace rocm_audit
