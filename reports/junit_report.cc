#include "reports/junit_report.h"

#include <map>
#include <vector>

namespace rocm_audit {
namespace {

std::string Xml(std::string_view s) {
  std::string out;
  for (unsigned char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default:
        // XML 1.0 forbids most control characters, even escaped.
        if (c < 0x20 && c != '\n' && c != '\t')
          out += "?";
        else
          out += static_cast<char>(c);
    }
  }
  return out;
}

}  // namespace

std::string RenderJunit(const Report& report, Severity fail_on, bool fail_on_none) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<const Finding*>> by_file;
  for (const FileFacts& e : report.files) {
    order.push_back(e.path);
    by_file[e.path];
  }
  for (const Finding& f : report.findings) {
    if (!by_file.count(f.file)) order.push_back(f.file);
    by_file[f.file].push_back(&f);
  }
  size_t failures = 0;
  std::string cases;
  for (const std::string& file : order) {
    std::string failing, other;
    for (const Finding* f : by_file[file]) {
      std::string line = std::string(SeverityName(f->severity)) + "[" + f->check + "]: " + f->message +
                         (f->hint.empty() ? "" : "\n  fix: " + f->hint) + "\n";
      if (f->suppressed) line = "suppressed (" + f->suppressed->reason + "): " + line;
      (!fail_on_none && !f->suppressed && f->severity >= fail_on ? failing : other) += line;
    }
    cases += "    <testcase classname=\"rocm-audit\" name=\"" + Xml(file) + "\">\n";
    if (!failing.empty()) {
      ++failures;
      std::string first = failing.substr(0, failing.find('\n'));
      cases += "      <failure message=\"" + Xml(first) + "\">" + Xml(failing) + "</failure>\n";
    }
    if (!other.empty()) cases += "      <system-out>" + Xml(other) + "</system-out>\n";
    cases += "    </testcase>\n";
  }
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"rocm-audit\" "
         "tests=\"" +
         std::to_string(order.size()) + "\" failures=\"" + std::to_string(failures) + "\" errors=\"0\">\n" +
         cases + "  </testsuite>\n</testsuites>\n";
}

}  // namespace rocm_audit
