#include "reports/diff_sides.h"

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "reports/diff_text.h"
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

// At most this many lines of a cell show; the rest fold into a <details> a click opens, so
// that a break of 149 symbols or hundreds of files leaves the table readable.
constexpr size_t kShownLines = 12;

// `lines` with those past kShownLines folded; `more` says what the folded ones are (from
// the first folded index).
std::string Folded(const std::vector<std::string>& lines, const std::function<std::string(size_t)>& more) {
  std::string out;
  for (size_t i = 0; i < lines.size() && i < kShownLines; ++i) out += lines[i];
  if (lines.size() <= kShownLines) return out;
  out += "<details><summary>" + more(kShownLines) + "</summary>";
  for (size_t i = kShownLines; i < lines.size(); ++i) out += lines[i];
  return out + "</details>";
}

// The files a finding hits (its `hit` field: paths, or {file, symbols}), one a line.
std::string Hit(const Finding& f) {
  auto it = f.fields.find("hit");
  if (it == f.fields.end() || !it->is_array() || it->empty()) return "<span class=\"hint\">none seen</span>";
  std::vector<std::string> lines;
  for (const Json& h : *it) {
    std::string item;
    if (h.is_string()) item = Code(h.get<std::string>());
    if (h.is_object() && h.contains("file") && h["file"].is_string()) {
      item = Code(h["file"].get<std::string>());
      if (auto s = h.find("symbols"); s != h.end() && s->is_array())
        for (const Json& sym : *s)
          if (sym.is_string()) item += " " + Code(sym.get<std::string>());
    }
    if (!item.empty()) lines.push_back("<div>" + item + "</div>");
  }
  return Folded(lines, [&](size_t from) { return std::to_string(lines.size() - from) + " more files"; });
}

std::string Row(const Finding& f, const std::string& what, const std::string& old_side,
                const std::string& new_side) {
  return "<tr><td class=\"file\">" + Code(f.file) + "</td><td class=\"what\">" + HtmlEscape(what) +
         "</td><td>" + old_side + "</td><td class=\"new\">" + new_side + "</td><td class=\"hit\">" + Hit(f) +
         "</td></tr>\n";
}

// The removed symbols demangled, a line each under the scope (namespace or class) they are
// grouped by (removed_by_scope), else as nm -D names them.
std::string Removed(const Finding& f) {
  auto it = f.fields.find("removed_by_scope");
  if (it == f.fields.end() || !it->is_array()) return Items(f, "removed");
  std::vector<std::string> lines;
  for (const Json& g : *it) {
    if (!g.is_object()) continue;
    const std::string scope = g.value("scope", "");
    if (!scope.empty()) lines.push_back("<div class=\"scope\">" + HtmlEscape(scope) + "</div>");
    if (auto n = g.find("names"); n != g.end() && n->is_array())
      for (const Json& name : *n)
        if (name.is_string())
          lines.push_back("<div class=\"name\"><code>" + HtmlEscape(name.get<std::string>()) +
                          "</code></div>");
  }
  if (lines.empty()) return Items(f, "removed");
  // Scope headings are no symbols: the summary counts the symbols folded.
  return Folded(lines, [&](size_t from) {
    size_t names = 0;
    for (size_t i = from; i < lines.size(); ++i) names += lines[i].starts_with("<div class=\"name\">");
    return std::to_string(names) + " more symbols";
  });
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
  return "<section id=\"sides-section\">\n<h2>Who is hit: OLD and NEW</h2>\n<table class=\"findings "
         "sides\">\n"
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
    const std::string source = SourceOf(v);
    const std::string level = v.needs.empty() ? "ok" : std::string(SeverityName(v.severity));
    rows += "<tr><td><span class=\"sev " + level + "\">" + (v.needs.empty() ? "compatible" : level) +
            "</span></td><td class=\"file\">" + Code(v.package) +
            (source.empty() ? "" : "<div class=\"hint\">" + HtmlEscape(source.substr(1)) + "</div>") +
            "</td><td class=\"version\">" + HtmlEscape(v.old_version) + "</td><td class=\"version\">" +
            HtmlEscape(v.new_version) + "</td><td class=\"message\">" + verdict + "</td></tr>\n";
  }
  return "<section id=\"verdict-section\">\n<h2>Verdict per package of NEW</h2>\n<table class=\"findings "
         "sides verdicts\">\n"
         "<thead><tr><th></th><th>Package</th><th>OLD</th><th>NEW</th><th>Verdict</th></tr></"
         "thead>\n<tbody>\n" +
         rows + "</tbody>\n</table>\n</section>\n";
}

}  // namespace rocm_audit
