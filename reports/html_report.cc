#include "reports/html_report.h"

#include <llvm/Support/Base64.h>
#include <llvm/Support/SHA256.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "audit/model/byte_text.h"
#include "audit/model/target_order.h"
#include "audit/support/text.h"
#include "reports/device_rows.h"
#include "reports/diff_sides.h"
#include "reports/root_causes.h"
#include "reports/urgency_order.h"

namespace rocm_audit {
namespace {

// The page's whole style and behaviour. Both are constant, so the Content-Security-Policy
// names them by hash and nothing else may run or load: no network, no injected script.
constexpr std::string_view kCss = R"css(
:root{--err:#b3261e;--warn:#9a5b00;--note:#0b67a0;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--alt:#f6f8fa}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:var(--fg);background:#fff}
header{padding:16px 24px 12px;border-bottom:1px solid var(--line);background:var(--alt)}
main{padding:0 24px 40px}
h1{font-size:20px;margin:0 0 4px}
h2{font-size:17px;margin:28px 0 8px}
code,.mono{font-family:"DejaVu Sans Mono",ui-monospace,monospace;font-size:12.5px}
.inputs,.summary,.legend,.hint{color:var(--muted);margin:4px 0}
.tiles{display:flex;flex-wrap:wrap;gap:8px;list-style:none;padding:0;margin:12px 0 8px}
.tile{border:1px solid var(--line);border-radius:6px;padding:6px 12px;background:#fff;min-width:110px}
.tile b{display:block;font-size:22px;line-height:1.2}
.tile.error b{color:var(--err)}.tile.warning b{color:var(--warn)}.tile.note b{color:var(--note)}
.tile.zero b{color:var(--muted)}
.sev{display:inline-block;min-width:62px;padding:1px 6px;border-radius:4px;color:#fff;font-size:12px;font-weight:600;text-align:center}
.sev.error{background:var(--err)}.sev.warning{background:var(--warn)}.sev.note{background:var(--note)}
.sev.ok{background:#1a7f37}.verdicts .sev{white-space:nowrap}
.tag{display:inline-block;margin-top:3px;padding:0 5px;border:1px solid var(--muted);border-radius:4px;font-size:11px;color:var(--muted)}
.causes{list-style:none;padding:0;margin:0}
.causes li{padding:4px 0;border-bottom:1px solid var(--alt)}
.causes .check{margin:0 6px}
.count{color:var(--muted)}
.filters{display:flex;flex-wrap:wrap;gap:14px;align-items:center;margin:8px 0 10px}
.filters input[type=search]{width:22em}
#visible-count{font-weight:600}
table{border-collapse:collapse}
.findings{width:100%}
.findings th,.findings td{border-bottom:1px solid var(--line);padding:5px 8px;text-align:left;vertical-align:top}
.findings thead th,.matrix thead th{position:sticky;top:0;background:var(--alt);z-index:1}
.findings td.file{overflow-wrap:anywhere;min-width:16em}
.findings td.message,.findings td.fix{overflow-wrap:anywhere}
.findings td.check{white-space:nowrap}
.sides td{overflow-wrap:anywhere}
.sides td.what{min-width:9em}.sides td.new{min-width:7em}.sides td.hit{min-width:14em}
.sides .scope{color:var(--muted);margin-top:4px}.sides .name{padding-left:1.2em}
.verdicts td.version{white-space:nowrap}
.inputs.warning{color:var(--warn);font-weight:600}
tr.accepted td{color:var(--muted);background:#fbfbfc}
.why{margin-top:4px;font-size:12.5px}
details summary{cursor:pointer;color:var(--muted)}
details ol,details ul{margin:4px 0;padding-left:22px}
.matrix th,.matrix td{border:1px solid var(--line);padding:3px 7px;text-align:center;white-space:nowrap}
.matrix th.file{text-align:left;font-weight:normal;white-space:normal;overflow-wrap:anywhere;min-width:22em}
.all{background:#d5f0dc;color:#1a6b32;font-weight:700}
.some{background:#fff0c2;color:#6e4a00;font-size:12px}
.generic{background:#dde8f7;color:#1d4f91;font-weight:600}
.compat{background:#f3e1f5;color:#6a2c73;font-weight:600}
.none{color:#aab1b9}
.legend span.cell{display:inline-block;min-width:26px;padding:0 6px;margin:0 4px 0 12px;border:1px solid var(--line);text-align:center}
.legend span.cell:first-child{margin-left:0}
[hidden]{display:none!important}
)css";

constexpr std::string_view kScript = R"js(
(function () {
  'use strict';
  var rows = Array.prototype.slice.call(document.querySelectorAll('#findings tbody tr.finding'));
  var check = document.getElementById('filter-check');
  var severity = document.getElementById('filter-severity');
  var file = document.getElementById('filter-file');
  var accepted = document.getElementById('show-accepted');
  var count = document.getElementById('visible-count');
  // A value the fragment names that no finding has still shows, as what the filter is.
  function choose(select, value) {
    var known = Array.prototype.some.call(select.options, function (o) { return o.value === value; });
    if (!known) {
      var o = document.createElement('option');
      o.value = value;
      o.textContent = value + ' (none)';
      select.appendChild(o);
    }
    select.value = value;
  }
  function apply() {
    var c = check.value, s = severity.value, f = file.value.toLowerCase(), a = accepted.checked;
    var shown = 0;
    rows.forEach(function (r) {
      var show = (!c || r.dataset.check === c) && (!s || r.dataset.severity === s) &&
                 (!f || r.dataset.file.toLowerCase().indexOf(f) >= 0) &&
                 (a || !r.hasAttribute('data-accepted'));
      r.hidden = !show;
      if (show) shown += 1;
    });
    count.textContent = shown + ' of ' + rows.length + ' findings';
    // The controls' attributes say the state too, so a dumped DOM shows the filter.
    [check, severity].forEach(function (select) {
      Array.prototype.forEach.call(select.options, function (o) {
        o.toggleAttribute('selected', o.value === select.value);
      });
    });
    file.setAttribute('value', file.value);
    accepted.toggleAttribute('checked', accepted.checked);
  }
  // #check=ID&severity=error|warning|note&file=TEXT&accepted=1
  function fromFragment() {
    var p = new URLSearchParams(location.hash.replace(/^#/, ''));
    choose(check, p.get('check') || '');
    choose(severity, p.get('severity') || '');
    file.value = p.get('file') || '';
    accepted.checked = /^(1|true|yes|on)$/i.test(p.get('accepted') || '');
    apply();
  }
  function toFragment() {
    var p = new URLSearchParams();
    if (check.value) p.set('check', check.value);
    if (severity.value) p.set('severity', severity.value);
    if (file.value) p.set('file', file.value);
    if (accepted.checked) p.set('accepted', '1');
    var h = p.toString();
    try {
      history.replaceState(null, '', h ? '#' + h : location.pathname + location.search);
    } catch (e) {
      // A browser that refuses (some file: URLs) keeps the filter without the fragment.
    }
  }
  function changed() {
    apply();
    toFragment();
  }
  check.addEventListener('change', changed);
  severity.addEventListener('change', changed);
  accepted.addEventListener('change', changed);
  file.addEventListener('input', changed);
  window.addEventListener('hashchange', function () {
    fromFragment();
    document.getElementById('findings-section').scrollIntoView();
  });
  fromFragment();
})();
)js";

// 'sha256-<base64>' for a Content-Security-Policy source list.
std::string CspHash(std::string_view text) {
  std::array<uint8_t, 32> digest =
      llvm::SHA256::hash(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
  return "'sha256-" + llvm::encodeBase64(digest) + "'";
}

std::string ProcessorOf(const std::string& target) { return target.substr(0, target.find(':')); }

std::string Code(std::string_view text) { return "<code>" + HtmlEscape(text) + "</code>"; }

// What was audited, or the two sides a diff compared (its OLD and NEW columns are theirs).
std::string InputsLine(const ReportInputs& inputs) {
  auto listed = [](const std::vector<std::string>& paths) {
    std::string s;
    for (size_t i = 0; i < paths.size(); ++i) s += (i ? ", " : "") + Code(paths[i]);
    return s;
  };
  std::string out;
  if (!inputs.sides_differ.empty()) {
    out = "<p class=\"inputs warning\" id=\"sides-differ\">OLD and NEW were audited differently: ";
    for (size_t i = 0; i < inputs.sides_differ.size(); ++i)
      out += (i ? "; " : "") + HtmlEscape(inputs.sides_differ[i]);
    out += ". Findings that depend on it are not comparable.</p>\n";
  }
  if (!inputs.old_paths.empty() || !inputs.new_paths.empty()) {
    out += "<p class=\"inputs\" id=\"sides\">Compared: OLD " + listed(inputs.old_paths) + "; NEW " +
           listed(inputs.new_paths);
    if (!inputs.base.empty()) out += "; over the base " + Code(inputs.base.front());
  } else if (!inputs.paths.empty())
    out = "<p class=\"inputs\">Audited: " + listed(inputs.paths);
  else
    return "";
  for (size_t i = 0; i < inputs.roots.size(); ++i)
    out += (i ? ", " : "; roots (top first): ") + Code(inputs.roots[i]);
  return out + "</p>\n";
}

// The text report's summary line, as a sentence and as figures.
std::string Header(const Report& report) {
  std::vector<std::string> files;
  for (const Finding& f : report.findings)
    if (!f.suppressed && std::find(files.begin(), files.end(), f.file) == files.end())
      files.push_back(f.file);
  const size_t errors = report.Count(Severity::kError), warnings = report.Count(Severity::kWarning),
               notes = report.Count(Severity::kNote);
  const size_t waived = report.CountSuppressed("waiver"), baselined = report.CountSuppressed("baseline");

  std::string out = "<header>\n<h1>rocm-audit report</h1>\n";
  out += InputsLine(report.inputs);
  auto tile = [](const std::string& cls, size_t n, const std::string& label) {
    return "<li class=\"tile " + cls + (n ? "" : " zero") + "\"><b>" + std::to_string(n) + "</b>" + label +
           "</li>\n";
  };
  out += "<ul class=\"tiles\" id=\"summary-figures\">\n";
  out += tile("files", report.FilesAudited(), "files audited");
  out += tile("error", errors, errors == 1 ? "error" : "errors");
  out += tile("warning", warnings, warnings == 1 ? "warning" : "warnings");
  out += tile("note", notes, notes == 1 ? "note" : "notes");
  out +=
      tile("with-findings", files.size(), files.size() == 1 ? "file with findings" : "files with findings");
  out += tile("accepted", waived + baselined, "accepted (not counted)");
  out += tile("disabled", report.disabled.size(),
              report.disabled.size() == 1 ? "check disabled" : "checks disabled");
  out += "</ul>\n";

  std::string line = Plural(report.FilesAudited(), "file") + " audited";
  std::string kinds;
  for (const auto& [kind, n] : report.counts)
    kinds += (kinds.empty() ? "" : ", ") + std::to_string(n) + " " + kind;
  if (!kinds.empty()) line += " (walked: " + kinds + ")";
  line += "; " + Plural(errors, "error") + ", " + Plural(warnings, "warning") + ", " + Plural(notes, "note") +
          " in " + Plural(files.size(), "file");
  if (waived || baselined) {
    line += "; accepted, not counted: ";
    if (waived) line += Plural(waived, "finding") + " by waivers";
    if (waived && baselined) line += ", ";
    if (baselined) line += Plural(baselined, "finding") + " in the baseline";
  }
  out += "<p class=\"summary\" id=\"summary\">" + HtmlEscape(line);
  if (!report.disabled.empty()) {
    out += "; " + Plural(report.disabled.size(), "check") + " disabled:";
    for (const std::string& id : report.disabled) out += " " + Code(id);
  }
  out += "</p>\n</header>\n";
  return out;
}

// One line per root cause, most severe first; as in the text report, a check's notes share
// one line. Each cause links to the findings table filtered to its check.
std::string Causes(const Report& report) {
  std::vector<RootCause> causes = RootCauses(report);
  std::string out = "<section id=\"causes\">\n<h2>What to fix, most severe first (" +
                    Plural(causes.size(), "cause") + ")</h2>\n";
  if (causes.empty()) return out + "<p class=\"hint\">Nothing to fix: no finding counts.</p>\n</section>\n";
  std::map<std::string, size_t> notes_per_check;
  for (const RootCause& c : causes)
    if (c.severity == Severity::kNote) ++notes_per_check[c.check];
  out += "<ol class=\"causes\">\n";
  for (const RootCause& c : causes) {
    std::string more;
    if (c.severity == Severity::kNote) {
      size_t& n = notes_per_check[c.check];
      if (n == 0) continue;  // this check's line is out already
      if (n > 1) more = " (and " + Plural(n - 1, "more cause") + " of this kind)";
      n = 0;
    }
    const std::string check = HtmlEscape(c.check);
    out += "<li><span class=\"sev " + std::string(SeverityName(c.severity)) + "\">" +
           std::string(SeverityName(c.severity)) + "</span><a class=\"check\" href=\"#check=" + check +
           "\" title=\"show the findings of " + check + "\"><code>" + check + "</code></a>" +
           HtmlEscape(c.line + more) + " <span class=\"count\">(" + Plural(c.findings, "finding") +
           ")</span></li>\n";
  }
  return out + "</ol>\n</section>\n";
}

// unresolved-library's search, directory by directory, as the text report prints it.
std::string Searched(const Finding& f) {
  auto it = f.fields.find("searched");
  if (it == f.fields.end() || !it->is_array() || it->empty()) return "";
  auto text = [](const nlohmann::ordered_json& j, const char* key) {
    auto v = j.find(key);
    return v != j.end() && v->is_string() ? v->get<std::string>() : std::string();
  };
  std::string out = "<details class=\"searched\"><summary>searched " + std::to_string(it->size()) +
                    (it->size() == 1 ? " directory" : " directories") + "</summary><ol>";
  for (const auto& s : *it)
    out += "<li>" + Code(text(s, "directory")) + " (" + HtmlEscape(text(s, "source")) +
           "): " + HtmlEscape(text(s, "outcome")) + "</li>";
  return out + "</ol></details>";
}

std::string FindingsTable(const Report& report) {
  std::map<std::string, size_t> by_check;
  std::vector<std::string> files;
  size_t accepted = 0, counted = 0;
  for (const Finding& f : report.findings) {
    ++by_check[f.check];
    if (std::find(files.begin(), files.end(), f.file) == files.end()) files.push_back(f.file);
    (f.suppressed ? accepted : counted) += 1;
  }
  std::string out = "<section id=\"findings-section\">\n<h2>Findings</h2>\n";
  out +=
      "<div class=\"filters\">\n<label>Check <select id=\"filter-check\">\n<option value=\"\">all "
      "checks</option>\n";
  for (const auto& [check, n] : by_check)
    out += "<option value=\"" + HtmlEscape(check) + "\">" + HtmlEscape(check) + " (" + std::to_string(n) +
           ")</option>\n";
  out +=
      "</select></label>\n<label>Severity <select id=\"filter-severity\">\n<option value=\"\">all</option>\n";
  for (Severity s : {Severity::kError, Severity::kWarning, Severity::kNote})
    out += "<option value=\"" + std::string(SeverityName(s)) + "\">" + std::string(SeverityName(s)) +
           "</option>\n";
  out +=
      "</select></label>\n<label>File <input type=\"search\" id=\"filter-file\" list=\"finding-files\" "
      "placeholder=\"part of the path\" autocomplete=\"off\"></label>\n<datalist id=\"finding-files\">";
  for (const std::string& f : files) out += "<option value=\"" + HtmlEscape(f) + "\"></option>";
  out += "</datalist>\n<label><input type=\"checkbox\" id=\"show-accepted\"" +
         std::string(accepted ? "" : " disabled") + "> show " + Plural(accepted, "accepted finding") +
         "</label>\n";
  out += "<span id=\"visible-count\">" + std::to_string(counted) + " of " +
         std::to_string(report.findings.size()) + " findings</span>\n</div>\n";
  out +=
      "<table class=\"findings\" id=\"findings\">\n<thead><tr><th>Severity</th><th>Check</th><th>File</th>"
      "<th>Message</th><th>Fix</th></tr></thead>\n<tbody>\n";
  std::vector<const Finding*> rows;  // most urgent first, as the text report lists them
  for (const FileFindings& group : FindingsByUrgency(report.findings, [](const Finding&) { return true; }))
    rows.insert(rows.end(), group.findings.begin(), group.findings.end());
  for (const Finding* row : rows) {
    const Finding& f = *row;
    const std::string severity(SeverityName(f.severity));
    out += "<tr class=\"finding " + severity + (f.suppressed ? " accepted" : "") + "\" data-check=\"" +
           HtmlEscape(f.check) + "\" data-severity=\"" + severity + "\" data-file=\"" + HtmlEscape(f.file) +
           "\"";
    if (f.suppressed) out += " data-accepted=\"" + HtmlEscape(f.suppressed->kind) + "\" hidden";
    out += ">\n<td><span class=\"sev " + severity + "\">" + severity + "</span>";
    if (f.suppressed) out += "<br><span class=\"tag\">accepted</span>";
    out += "</td><td class=\"check\"><code>" + HtmlEscape(f.check) + "</code></td><td class=\"file\">" +
           Code(f.file) + "</td><td class=\"message\">" + HtmlEscape(f.message) + Searched(f);
    if (f.suppressed)
      out += "<div class=\"why\">accepted by " + HtmlEscape(f.suppressed->kind) + " " +
             Code(f.suppressed->source) + ": " + HtmlEscape(f.suppressed->reason) + "</div>";
    out += "</td><td class=\"fix\">" + HtmlEscape(f.hint) + "</td></tr>\n";
  }
  out += "</tbody>\n</table>\n";
  if (report.findings.empty()) out += "<p class=\"hint\">No findings.</p>\n";
  return out + "</section>\n";
}

// Files with device code x processors. Standalone code objects and bundles (Tensile's
// per-arch files) are many and alike: one row per directory, as in the text report, the
// union of what its files serve; libraries one row each. Names are whole.
std::string ArchMatrix(const Report& report) {
  const std::vector<DeviceRow> rows = GroupDeviceFiles(report, false);
  if (rows.empty()) return "";
  std::vector<std::string> columns = ServedProcessors(rows);
  for (const DeviceRow& row : rows)
    for (const FileFacts* f : row.files)
      for (const std::string& t : f->device->targets) columns.push_back(ProcessorOf(t));
  SortTargetIds(&columns);
  columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
  std::string out = "<section id=\"arch\">\n<h2>GPU targets by file</h2>\n";
  out +=
      "<p class=\"legend\"><span class=\"cell all\">&#x25CF;</span>code for every xnack/sramecc mode"
      "<span class=\"cell some\">:xnack+</span>code for that feature mode only"
      "<span class=\"cell generic\">g</span>only through its generic target"
      "<span class=\"cell compat\">c</span>only through ISA compatibility (--isa-compat)"
      "<span class=\"cell none\">&#xB7;</span>no code for the processor</p>\n";
  if (columns.empty()) return out + "<p class=\"hint\">No file serves any GPU target.</p>\n</section>\n";
  out += "<table class=\"matrix\" id=\"arch-matrix\">\n<thead><tr><th class=\"file\">file</th>";
  for (const std::string& c : columns) out += "<th>" + HtmlEscape(c) + "</th>";
  out += "</tr></thead>\n<tbody>\n";
  for (const DeviceRow& row : rows) {
    std::vector<std::string> targets;
    for (const FileFacts* f : row.files)
      targets.insert(targets.end(), f->device->targets.begin(), f->device->targets.end());
    SortTargetIds(&targets);
    const bool directory = row.place.back() == '/';
    out += "<tr><th class=\"file\" scope=\"row\">";
    if (directory) {
      out += "<details><summary>" + Code(row.place) + " (" + Plural(row.files.size(), "file") +
             ")</summary><ul>";
      for (const FileFacts* f : row.files) out += "<li>" + Code(f->path.substr(row.place.size())) + "</li>";
      out += "</ul></details>";
    } else {
      out += Code(row.place);
    }
    out += "</th>";
    for (const std::string& c : columns) {
      bool all = false;
      std::vector<std::string> modes;
      for (const std::string& t : targets) {
        if (ProcessorOf(t) != c) continue;
        if (t.find(':') == std::string::npos)
          all = true;
        else
          modes.push_back(t.substr(t.find(':')));
      }
      const std::string name = HtmlEscape(c);
      const std::optional<Served> how = RowServes(row, c);
      if (all) {
        out += "<td class=\"all\" title=\"" + name + ": every mode\">&#x25CF;</td>";
      } else if (!modes.empty()) {
        std::string list;
        for (const std::string& m : modes) list += (list.empty() ? "" : " ") + HtmlEscape(m);
        out += "<td class=\"some\" title=\"" + name + ": only " + list + "\">" + list + "</td>";
      } else if (how == Served::kGeneric || how == Served::kAllModes) {
        out += "<td class=\"generic\" title=\"" + name + ": through its generic target\">g</td>";
      } else if (how == Served::kIsaCompat) {
        out += "<td class=\"compat\" title=\"" + name + ": only through ISA compatibility\">c</td>";
      } else {
        out += "<td class=\"none\" title=\"" + name + ": no code\">&#xB7;</td>";
      }
    }
    out += "</tr>\n";
  }
  return out + "</tbody>\n</table>\n</section>\n";
}

}  // namespace

std::string HtmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : DisplayText(text, Newlines::kKeep)) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string RenderHtml(const Report& report) {
  static const std::string kPolicy = "default-src 'none'; style-src " + CspHash(kCss) + "; script-src " +
                                     CspHash(kScript) + "; base-uri 'none'; form-action 'none'";
  const std::string title = "rocm-audit: " + Plural(report.Count(Severity::kError), "error") + ", " +
                            Plural(report.Count(Severity::kWarning), "warning") + ", " +
                            Plural(report.Count(Severity::kNote), "note");
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta http-equiv=\"Content-Security-Policy\" content=\"" + kPolicy + "\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += "<meta name=\"generator\" content=\"rocm-audit\">\n";
  out +=
      "<title>" + HtmlEscape(title) + "</title>\n<style>" + std::string(kCss) + "</style>\n</head>\n<body>\n";
  out += Header(report);
  // A diff's first screen: the verdict, then who is hit (OLD and NEW side by side), then
  // what to fix.
  out += "<main>\n" + DiffVerdictSection(report) + DiffSidesSection(report) + Causes(report) +
         FindingsTable(report) + ArchMatrix(report) + "</main>\n";
  out += "<script>" + std::string(kScript) + "</script>\n</body>\n</html>\n";
  return out;
}

}  // namespace rocm_audit
