#include "reports/junit_report.h"

#include <algorithm>
#include <map>
#include <vector>

#include "audit/model/byte_text.h"
#include "reports/diff_text.h"

namespace rocm_audit {
namespace {

// XML 1.0 text: names as DisplayText (no control character XML forbids, no invalid UTF-8,
// both shown as \xNN), the findings' own line breaks kept, markup escaped.
std::string Xml(std::string_view s) {
  std::string out;
  for (char c : DisplayText(s, Newlines::kKeep)) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string Line(const Finding& f) {
  return std::string(SeverityName(f.severity)) + "[" + f.check + "]: " + f.message +
         (f.hint.empty() ? "" : "\n  fix: " + f.hint) + "\n";
}

struct Counts {
  size_t tests = 0, failures = 0, skipped = 0;
};

// One file's findings of one check, as a test case.
std::string TestCase(const std::string& check, const std::string& file,
                     const std::vector<const Finding*>& findings, Severity fail_on, bool fail_on_none,
                     Counts* counts) {
  std::string failing, accepted, other;
  for (const Finding* f : findings) {
    if (f->suppressed)
      accepted += "accepted (" + f->suppressed->kind + ": " + f->suppressed->reason + "): " + Line(*f);
    else if (!fail_on_none && f->severity >= fail_on)
      failing += Line(*f);
    else
      other += Line(*f);
  }
  std::string out = "    <testcase classname=\"rocm-audit." + Xml(check) + "\" name=\"" + Xml(file) + "\">\n";
  ++counts->tests;
  if (failing.empty() && other.empty() && !accepted.empty()) {
    ++counts->skipped;
    out += "      <skipped>" + Xml(accepted) + "</skipped>\n";
    accepted.clear();
  }
  if (!failing.empty()) {
    ++counts->failures;
    out += "      <failure message=\"" + Xml(failing.substr(0, failing.find('\n'))) + "\" type=\"" +
           Xml(check) + "\">" + Xml(failing) + "</failure>\n";
  }
  if (!other.empty() || !accepted.empty())
    out += "      <system-out>" + Xml(other + accepted) + "</system-out>\n";
  return out + "    </testcase>\n";
}

// `diff OLD NEW`: a test case per package of NEW, failing when its verdict is not
// "compatible" at a level the run fails on, so that a CI page shows the gate's verdict first.
std::string VerdictSuite(const Report& report, Severity fail_on, bool fail_on_none, Counts* total) {
  if (report.verdicts.empty()) return "";
  Counts counts;
  std::string cases;
  for (const PackageVerdict& v : report.verdicts) {
    ++counts.tests;
    cases += "    <testcase classname=\"rocm-audit.package-verdict\" name=\"" + Xml(v.package + SourceOf(v)) +
             "\"";
    if (v.needs.empty()) {
      cases += "/>\n";
      continue;
    }
    std::string text = std::string(SeverityName(v.severity)) + "[package-verdict]: " + v.package + ":";
    for (const std::string& n : v.needs) text += "\n  " + n;
    text += "\n";
    const bool fails = !fail_on_none && v.severity >= fail_on;
    counts.failures += fails;
    cases += ">\n" +
             (fails ? "      <failure message=\"" + Xml(v.needs.front()) + "\" type=\"package-verdict\">" +
                          Xml(text) + "</failure>\n"
                    : "      <system-out>" + Xml(text) + "</system-out>\n") +
             "    </testcase>\n";
  }
  total->tests += counts.tests;
  total->failures += counts.failures;
  return "  <testsuite name=\"package-verdict\" tests=\"" + std::to_string(counts.tests) + "\" failures=\"" +
         std::to_string(counts.failures) + "\" errors=\"0\" skipped=\"0\">\n" + cases + "  </testsuite>\n";
}

}  // namespace

std::string RenderJunit(const Report& report, Severity fail_on, bool fail_on_none) {
  // check -> file -> findings, files in report order.
  std::map<std::string, std::vector<std::pair<std::string, std::vector<const Finding*>>>> by_check;
  for (const Finding& f : report.findings) {
    auto& files = by_check[f.check];
    auto it = std::find_if(files.begin(), files.end(), [&](const auto& e) { return e.first == f.file; });
    if (it == files.end()) it = files.insert(files.end(), {f.file, {}});
    it->second.push_back(&f);
  }
  Counts total;
  std::string suites = VerdictSuite(report, fail_on, fail_on_none, &total);
  for (const Rule& rule : report.rules) {
    const std::string check(rule.id);
    if (std::find(report.disabled.begin(), report.disabled.end(), check) != report.disabled.end()) continue;
    Counts counts;
    std::string cases;
    for (const auto& [file, findings] : by_check[check])
      cases += TestCase(check, file, findings, fail_on, fail_on_none, &counts);
    if (cases.empty()) {
      ++counts.tests;
      cases = "    <testcase classname=\"rocm-audit." + Xml(check) + "\" name=\"no findings in " +
              std::to_string(report.FilesAudited()) + " audited files\"/>\n";
    }
    suites += "  <testsuite name=\"" + Xml(check) + "\" tests=\"" + std::to_string(counts.tests) +
              "\" failures=\"" + std::to_string(counts.failures) + "\" errors=\"0\" skipped=\"" +
              std::to_string(counts.skipped) + "\">\n" + cases + "  </testsuite>\n";
    total.tests += counts.tests;
    total.failures += counts.failures;
  }
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"rocm-audit\" tests=\"" +
         std::to_string(total.tests) + "\" failures=\"" + std::to_string(total.failures) +
         "\" errors=\"0\">\n" + suites + "</testsuites>\n";
}

}  // namespace rocm_audit
