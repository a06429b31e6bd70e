#include "reports/text_report.h"

#include "audit/model/target_order.h"

#include <algorithm>
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

std::string FileNameOf(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string Size(uint64_t bytes) {
  char buf[32];
  if (bytes >= 1000 * 1000)
    snprintf(buf, sizeof buf, "%.1f MB", bytes / 1e6);
  else if (bytes >= 1000)
    snprintf(buf, sizeof buf, "%.1f kB", bytes / 1e3);
  else
    snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
  return buf;
}

// "hip 6.4.2: 4 targets, 2 dependencies, OK", or the first missing file and where it is named.
std::string CMakeSummary(const CMakePackageFacts& c) {
  const size_t deps = c.dependencies.size();
  std::string out = c.package + (c.version.empty() ? "" : " " + c.version) + ": " +
                    Plural(c.targets.size(), "target") + ", " + std::to_string(deps) +
                    (deps == 1 ? " dependency" : " dependencies");
  size_t decided = 0, undecided = 0;
  const CMakeMissingFacts* first = nullptr;
  for (const CMakeMissingFacts& m : c.missing) {
    (m.decided ? decided : undecided) += 1;
    if (m.decided && !first) first = &m;
  }
  if (!first) {
    out += ", OK";
    if (undecided)
      out += " (" + Plural(undecided, "file") + " named only on branches not decided statically are missing)";
    return out;
  }
  std::string in = FileNameOf(first->file);
  out += ", " + Plural(decided, "missing file") + ": " + first->path + " (" + first->via + " at " + in + ":" +
         std::to_string(first->line) + ")";
  return out;
}

// "3 bundles, CCOB v2 zstd 12.1 MB -> 40.2 MB: gfx906 gfx90a gfx1030"
std::string DeviceSummary(const DeviceFacts& device) {
  std::map<std::string, std::pair<uint64_t, uint64_t>> by_format;  // label -> sizes
  for (const BundleFacts& b : device.bundles) {
    std::string label = b.format;
    if (label == "ccob")
      label = "CCOB v" + std::to_string(b.ccob_version.value_or(0)) + " " + b.compression.value_or("");
    auto& sizes = by_format[label];
    sizes.first += b.compressed_size;
    sizes.second += b.uncompressed_size;
  }
  std::string out = Plural(device.bundles.size(), "bundle");
  for (const auto& [label, sizes] : by_format) {
    out += ", " + label + " " + Size(sizes.first);
    if (sizes.first != sizes.second) out += " -> " + Size(sizes.second);
  }
  out += ":";
  if (device.targets.empty()) out += " no device code";
  for (const std::string& t : device.targets) out += " " + t;
  return out;
}

std::string ProcessorOf(const std::string& target) { return target.substr(0, target.find(':')); }

// Files x processors: "x" all modes offered, "+"/"-" one xnack mode, "s" sramecc-specific.
std::string ArchMatrix(const Report& report) {
  std::vector<const FileFacts*> rows;
  std::map<std::string, int> columns;  // processor -> order key
  for (const FileFacts& e : report.files) {
    if (!e.device || e.device->targets.empty()) continue;
    rows.push_back(&e);
    for (const std::string& t : e.device->targets) columns[ProcessorOf(t)] = 0;
  }
  if (rows.empty()) return "";
  std::vector<std::string> cols;
  for (const auto& [c, _] : columns) cols.push_back(c);
  SortTargetIds(&cols);
  size_t width = 4;
  for (const FileFacts* e : rows) width = std::max(width, e->path.size());
  width = std::min<size_t>(width, 60);
  auto cell = [](const std::string& text, size_t w) {
    return text.size() >= w ? text.substr(text.size() - w) : std::string(w - text.size(), ' ') + text;
  };
  std::string out =
      "\nGPU targets by file (x: code for the processor; ':' marks a feature-specific entry):\n";
  out += cell("file", width);
  for (const auto& c : cols) out += " " + c;
  out += "\n";
  for (const FileFacts* e : rows) {
    out += cell(e->path, width);
    for (const auto& c : cols) {
      std::string mark = ".";
      for (const std::string& s : e->device->targets) {
        if (ProcessorOf(s) != c) continue;
        mark = s.find(':') == std::string::npos ? "x" : (mark == "x" ? "x" : ":");
      }
      out += " " + cell(mark, c.size());
    }
    out += "\n";
  }
  return out;
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
    if (f.suppressed) continue;  // counted in the summary line
    if (options.quiet && f.severity < options.min_severity) continue;
    auto& list = by_file[f.file];
    if (list.empty()) order.push_back(f.file);
    list.push_back(&f);
  }
  for (const std::string& file : order) {
    out += std::string(bold) + file + reset + "\n";
    for (const Finding* f : by_file[file]) {
      out += "  " + std::string(options.color ? Color(f->severity) : "") +
             std::string(SeverityName(f->severity)) + reset + "[" + f->check + "]: " + f->message + "\n";
      if (f->fields.contains("searched") && !f->fields["searched"].empty())
        RenderSearch(f->fields["searched"], &out);
      if (!f->hint.empty()) out += "    fix: " + f->hint + "\n";
    }
  }
  if (options.quiet) return out;
  std::string devices;
  for (const FileFacts& e : report.files)
    if (e.device) devices += "  " + e.path + ": " + DeviceSummary(*e.device) + "\n";
  if (!devices.empty()) out += (order.empty() ? "" : "\n") + std::string("device code:\n") + devices;
  std::string packages;
  for (const FileFacts& e : report.files)
    if (e.cmake) packages += "  " + CMakeSummary(*e.cmake) + "\n";
  if (!packages.empty())
    out += (order.empty() && devices.empty() ? "" : "\n") + std::string("cmake packages:\n") + packages;
  if (options.arch_matrix) out += ArchMatrix(report);
  size_t errors = report.Count(Severity::kError), warnings = report.Count(Severity::kWarning),
         notes = report.Count(Severity::kNote);
  if (!order.empty()) out += "\n";
  out += "rocm-audit: " + Plural(report.files.size(), "file") + " audited";
  std::string kinds;
  for (const auto& [kind, n] : report.counts)
    kinds += (kinds.empty() ? "" : ", ") + std::to_string(n) + " " + kind;
  if (!kinds.empty()) out += " (walked: " + kinds + ")";
  out += "; " + Plural(errors, "error") + ", " + Plural(warnings, "warning") + ", " + Plural(notes, "note") +
         " in " + Plural(order.size(), "file");
  const size_t waived = report.CountSuppressed("waiver"), baselined = report.CountSuppressed("baseline");
  if (waived || baselined) {
    out += "; not shown: ";
    if (waived) out += Plural(waived, "finding") + " accepted by waivers";
    if (waived && baselined) out += ", ";
    if (baselined) out += Plural(baselined, "finding") + " in the baseline";
  }
  if (!report.disabled.empty()) out += "; " + Plural(report.disabled.size(), "check") + " disabled";
  out += "\n";
  return out;
}

}  // namespace rocm_audit
