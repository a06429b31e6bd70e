#include "reports/text_report.h"

#include <map>
#include <vector>

namespace rocm_audit {
namespace {

const char* Color(Severity s) {
  switch (s) {
    case Severity::kError: return "\033[1;31m";
    case Severity::kWarning: return "\033[1;33m";
    case Severity::kNote: return "\033[1;36m";
  }
  return "";
}

std::string Plural(size_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

void RenderSearch(const nlohmann::ordered_json& searched, std::string* out) {
  const char* label = "    searched: ";
  for (const auto& s : searched) {
    *out += label + s["directory"].get<std::string>() + " (" + s["source"].get<std::string>() +
            "): " + s["outcome"].get<std::string>() + "\n";
    label = "              ";
  }
}

}  // namespace

std::string RenderText(const Report& report, const TextOptions& options) {
  std::string out;
  const char* reset = options.color ? "\033[0m" : "";
  const char* bold = options.color ? "\033[1m" : "";
  // Group by file, keeping the order of first appearance (walk order).
  std::vector<std::string> order;
  std::map<std::string, std::vector<const Finding*>> by_file;
  for (const Finding& f : report.findings) {
    if (options.quiet && f.severity < options.min_severity) continue;
    auto& list = by_file[f.file];
    if (list.empty()) order.push_back(f.file);
    list.push_back(&f);
  }
  for (const std::string& file : order) {
    out += std::string(bold) + file + reset + "\n";
    for (const Finding* f : by_file[file]) {
      out += "  " + std::string(options.color ? Color(f->severity) : "") +
             std::string(SeverityName(f->severity)) + reset + "[" + f->check + "]: " +
             f->message + "\n";
      if (f->fields.contains("searched") && !f->fields["searched"].empty())
        RenderSearch(f->fields["searched"], &out);
      if (!f->hint.empty()) out += "    fix: " + f->hint + "\n";
    }
  }
  if (options.quiet) return out;
  size_t errors = report.Count(Severity::kError), warnings = report.Count(Severity::kWarning),
         notes = report.Count(Severity::kNote);
  if (!order.empty()) out += "\n";
  out += "rocm-audit: " + Plural(report.files.size(), "file") + " audited";
  std::string kinds;
  for (const auto& [kind, n] : report.counts)
    kinds += (kinds.empty() ? "" : ", ") + std::to_string(n) + " " + kind;
  if (!kinds.empty()) out += " (walked: " + kinds + ")";
  out += "; " + Plural(errors, "error") + ", " + Plural(warnings, "warning") + ", " +
         Plural(notes, "note") + " in " + Plural(order.size(), "file") + "\n";
  return out;
}

}  // namespace rocm_audit
