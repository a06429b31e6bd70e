#include "reports/text_report.h"

#include "audit/model/target_order.h"
#include "audit/support/text.h"
#include "reports/device_rows.h"
#include "reports/diff_text.h"
#include "reports/root_causes.h"
#include "reports/urgency_order.h"

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

void RenderSearch(const nlohmann::ordered_json& searched, std::string* out) {
  const char* label = "    searched: ";
  for (const auto& s : searched) {
    *out += label + s["directory"].get<std::string>() + " (" + s["source"].get<std::string>() +
            "): " + s["outcome"].get<std::string>() + "\n";
    label = "              ";
  }
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
// `failure`: the package's first error of a cmake-* check shown in the report, if any: a
// config that find_package() cannot load is not OK however many of its files exist.
std::string CMakeSummary(const CMakePackageFacts& c, const Finding* failure) {
  // The config's own find_package() calls; those of a Find module it ships are counted there.
  const size_t deps = std::count_if(c.dependencies.begin(), c.dependencies.end(),
                                    [](const CMakeDependencyFacts& d) { return d.via.empty(); });
  std::string out = c.package + (c.version.empty() ? "" : " " + c.version) + ": " +
                    Plural(c.targets.size(), "target") + ", " + std::to_string(deps) +
                    (deps == 1 ? " dependency" : " dependencies");
  size_t decided = 0, undecided = 0;
  const CMakeMissingFacts* first = nullptr;
  for (const CMakeMissingFacts& m : c.missing) {
    (m.decided ? decided : undecided) += 1;
    if (m.decided && !first) first = &m;
  }
  if (!first && failure) return out + ", fails: " + failure->check;
  if (!first) {
    out += ", OK";
    if (undecided)
      out += " (" + Plural(undecided, "file") + " named only on branches not decided statically are missing)";
    return out;
  }
  std::string in(BaseName(first->file));
  out += ", " + Plural(decided, "missing file") + ": " + first->path + " (" + first->via + " at " + in + ":" +
         std::to_string(first->line) + ")";
  return out;
}

// "3 bundles, CCOB v2 zstd 12.1 MB -> 40.2 MB: gfx906 gfx90a gfx1030", over one file or
// all the standalone device-code files of one directory.
std::string DeviceSummary(const std::vector<const DeviceFacts*>& devices) {
  std::map<std::string, std::pair<uint64_t, uint64_t>> by_format;  // label -> sizes
  std::vector<std::string> targets;
  size_t bundles = 0;
  for (const DeviceFacts* device : devices) {
    bundles += device->bundles.size();
    for (const std::string& t : device->targets)
      if (std::find(targets.begin(), targets.end(), t) == targets.end()) targets.push_back(t);
  }
  SortTargetIds(&targets);
  for (const DeviceFacts* device : devices)
    for (const BundleFacts& b : device->bundles) {
      std::string label = b.format;
      if (label == "ccob")
        label = b.ccob_version ? "CCOB v" + std::to_string(*b.ccob_version) + " " + b.compression.value_or("")
                               : "CCOB";  // its header could not be read
      // A bundle with a problem is counted apart and at its stored size: what its header
      // claims (a CCOB refused for claiming 1 TB) is not what it holds.
      if (!b.valid) label += " with problems";
      auto& sizes = by_format[label];
      sizes.first += b.compressed_size;
      sizes.second += b.valid ? b.uncompressed_size : b.compressed_size;
    }
  std::string out = Plural(bundles, "bundle");
  for (const auto& [label, sizes] : by_format) {
    out += ", " + label + " " + Size(sizes.first);
    if (sizes.first != sizes.second) out += " -> " + Size(sizes.second);
  }
  out += ":";
  if (targets.empty()) out += " no device code";
  for (const std::string& t : targets) out += " " + t;
  return out;
}

// Standalone device-code files (Tensile's per-arch code objects, bundles on their own) are
// many and alike: unless verbose, one line per directory; libraries one line each.
std::string DeviceSection(const Report& report, bool verbose) {
  std::string out;
  for (const DeviceRow& row : GroupDeviceFiles(report, verbose)) {
    std::vector<const DeviceFacts*> devices;
    for (const FileFacts* f : row.files) devices.push_back(&*f->device);
    bool directory = !row.place.empty() && row.place.back() == '/';
    out += "  " + row.place + (directory ? " (" + Plural(devices.size(), "file") + ")" : "") + ": " +
           DeviceSummary(devices) + "\n";
  }
  return out;
}

char Mark(std::optional<Served> how) {
  if (!how) return '.';
  switch (*how) {
    case Served::kAllModes: return 'x';
    case Served::kGeneric: return 'g';
    case Served::kSomeModes: return ':';
    case Served::kIsaCompat: return 'c';
  }
  return '?';
}

// Processors x files, the name last and whole so that long paths never push the columns
// apart; standalone device code one row per directory unless verbose, as above.
std::string ArchMatrix(const Report& report, bool verbose) {
  const std::vector<DeviceRow> rows = GroupDeviceFiles(report, verbose);
  const std::vector<std::string> columns = ServedProcessors(rows);
  if (rows.empty()) return "";
  std::string out =
      "\nGPU processors by file (x: code for every xnack/sramecc mode; g: only through its generic "
      "target;\n  ':' some modes only; c: only through ISA compatibility (--isa-compat); '.': none):\n";
  if (columns.empty()) return out + "  no file serves any GPU processor\n";
  for (const std::string& c : columns) out += c + " ";
  out += "file\n";
  for (const DeviceRow& row : rows) {
    for (const std::string& c : columns)
      out += std::string(c.size() - 1, ' ') + Mark(RowServes(row, c)) + " ";
    bool directory = row.place.back() == '/';
    out += row.place + (directory ? " (" + Plural(row.files.size(), "file") + ")" : "") + "\n";
  }
  return out;
}

// "rocm-audit: 2138 files audited (walked: ...); 137 errors, 36 warnings, 19 notes in 57
// files; not shown: ...": first and last, so neither the top of a log nor its tail misses it.
std::string SummaryLine(const Report& report) {
  std::vector<std::string> files;
  for (const Finding& f : report.findings)
    if (!f.suppressed && std::find(files.begin(), files.end(), f.file) == files.end())
      files.push_back(f.file);
  std::string out = "rocm-audit: " + Plural(report.FilesAudited(), "file") + " audited";
  std::string kinds;
  for (const auto& [kind, n] : report.counts)
    kinds += (kinds.empty() ? "" : ", ") + std::to_string(n) + " " + kind;
  if (!kinds.empty()) out += " (walked: " + kinds + ")";
  out += "; " + Plural(report.Count(Severity::kError), "error") + ", " +
         Plural(report.Count(Severity::kWarning), "warning") + ", " +
         Plural(report.Count(Severity::kNote), "note") + " in " + Plural(files.size(), "file");
  const size_t waived = report.CountSuppressed("waiver"), baselined = report.CountSuppressed("baseline");
  if (waived || baselined) {
    out += "; not shown: ";
    if (waived) out += Plural(waived, "finding") + " accepted by waivers";
    if (waived && baselined) out += ", ";
    if (baselined) out += Plural(baselined, "finding") + " in the baseline";
  }
  if (!report.disabled.empty()) out += "; " + Plural(report.disabled.size(), "check") + " disabled";
  return out + "\n";
}

// One line per root cause, most severe first; a check's notes share one line.
std::string FirstScreen(const Report& report, bool color) {
  std::vector<RootCause> causes = RootCauses(report);
  if (causes.empty()) return "";
  std::map<std::string, size_t> notes_per_check;
  for (const RootCause& c : causes)
    if (c.severity == Severity::kNote) ++notes_per_check[c.check];
  std::string lines;
  for (const RootCause& c : causes) {
    std::string line = c.line;
    if (c.severity == Severity::kNote) {
      size_t& more = notes_per_check[c.check];
      if (more == 0) continue;  // this check's line is out already
      if (more > 1) line += " (and " + Plural(more - 1, "more cause") + " of this kind)";
      more = 0;
    }
    std::string severity(SeverityName(c.severity));
    lines += "  " + std::string(color ? Color(c.severity) : "") + severity + (color ? "\033[0m" : "") +
             std::string(8 - severity.size(), ' ') + "[" + c.check + "] " + line + "\n";
  }
  return "What to fix, most severe first (" + Plural(causes.size(), "cause") +
         "; each file's findings follow, --explain CHECK tells more):\n" + lines;
}

// Which world the files were judged in, when they are installed over a base (design.md
// §1.1): packages or a tree with siblings.
std::string WorldLine(const ReportInputs& inputs) {
  if (!inputs.installed_world) return "";
  std::string line = "audited as installed over ";
  if (inputs.base.empty()) line += "no base (--no-base)";
  for (size_t i = 0; i < inputs.base.size(); ++i)
    line += (i ? ", " : inputs.base.size() > 1 ? "the base (top first) " : "the base ") + inputs.base[i];
  for (size_t i = 0; i < inputs.siblings.size(); ++i)
    line += (i ? ", " : ", with the siblings ") + inputs.siblings[i];
  return line + "\n";
}

// A side of `diff OLD NEW` in a few words: its PATHs, or for a set of more than three, how
// many and the directory they share, the first and the last (a distribution's set is dozens
// of .debs, thousands of characters named one by one).
std::string SideBriefly(const std::vector<std::string>& paths) {
  if (paths.size() <= 3) {
    std::string s;
    for (const std::string& p : paths) s += (s.empty() ? "" : ", ") + p;
    return s;
  }
  std::string common = paths[0].substr(0, paths[0].rfind('/') + 1);
  for (const std::string& p : paths)
    while (!common.empty() && !p.starts_with(common))
      common = common.substr(0, common.rfind('/', common.size() - 2) + 1);
  auto name = [&](const std::string& p) { return p.substr(common.size()); };
  return std::to_string(paths.size()) + " inputs" + (common.empty() ? "" : " in " + common) + " (" +
         name(paths.front()) + " ... " + name(paths.back()) + ")";
}

// The sides of `diff OLD NEW` and the base NEW is installed over; first, a warning when the
// sides were audited differently. "" for an audit.
std::string SidesLine(const ReportInputs& inputs) {
  if (inputs.old_paths.empty() && inputs.new_paths.empty()) return "";
  std::string out;
  if (!inputs.sides_differ.empty()) {
    out = "warning: OLD and NEW were audited differently (";
    for (size_t i = 0; i < inputs.sides_differ.size(); ++i) out += (i ? "; " : "") + inputs.sides_differ[i];
    out += "): findings that depend on it are not comparable\n";
  }
  out += "compared OLD " + SideBriefly(inputs.old_paths) + " with NEW " + SideBriefly(inputs.new_paths);
  if (!inputs.base.empty())
    out += " over the base " + inputs.base.front() + (inputs.base.size() > 1 ? ", ..." : "");
  return out + "\n";
}

}  // namespace

std::string RenderText(const Report& report, const TextOptions& options) {
  const char* reset = options.color ? "\033[0m" : "";
  const char* bold = options.color ? "\033[1m" : "";
  // Accepted findings are counted in the summary line only; -q hides those below its severity.
  size_t hidden_below = 0;
  auto shown = [&](const Finding& f) {
    if (f.suppressed) return false;
    if (options.quiet && f.severity < options.min_severity) {
      ++hidden_below;
      return false;
    }
    return true;
  };
  std::string details;
  for (const FileFindings& group : FindingsByUrgency(report.findings, shown)) {
    details += std::string(bold) + group.file + reset + "\n";
    for (const Finding* f : group.findings) {
      details += "  " + std::string(options.color ? Color(f->severity) : "") +
                 std::string(SeverityName(f->severity)) + reset + "[" + f->check + "]: " + f->message + "\n";
      if (f->fields.contains("searched") && !f->fields["searched"].empty())
        RenderSearch(f->fields["searched"], &details);
      details += DiffDetailLines(*f);
      if (!f->hint.empty()) details += "    fix: " + f->hint + "\n";
    }
  }
  if (options.quiet) {
    // A filter says what it hides.
    size_t accepted = report.CountSuppressed("waiver") + report.CountSuppressed("baseline");
    if (hidden_below || accepted)
      details += "rocm-audit -q: not shown: " + Plural(hidden_below, "finding") + " below " +
                 std::string(SeverityName(options.min_severity)) + ", " +
                 Plural(accepted, "accepted finding") + ", the root causes, the inventory and the summary\n";
    return details;
  }
  const std::string summary = SummaryLine(report);
  std::string out = SidesLine(report.inputs) + WorldLine(report.inputs) + summary;
  if (const std::string verdicts = VerdictLines(report); !verdicts.empty()) out += "\n" + verdicts;
  std::string causes = FirstScreen(report, options.color);
  if (!causes.empty()) out += "\n" + causes;
  if (!details.empty()) out += "\n" + details;
  std::string devices = DeviceSection(report, options.verbose);
  if (!devices.empty())
    out += "\ndevice code" +
           std::string(options.verbose ? "" : " (per library, and per directory of code objects)") + ":\n" +
           devices;
  std::map<std::string_view, const Finding*> cmake_failure;  // by file: its first cmake-* error
  for (const Finding& f : report.findings)
    if (!f.suppressed && f.severity == Severity::kError && f.check.starts_with("cmake-"))
      cmake_failure.try_emplace(f.file, &f);
  std::string packages;
  for (const FileFacts& e : report.files) {
    if (!e.cmake) continue;
    auto failure = cmake_failure.find(e.path);
    packages +=
        "  " + CMakeSummary(*e.cmake, failure == cmake_failure.end() ? nullptr : failure->second) + "\n";
  }
  if (!packages.empty()) out += "\ncmake packages:\n" + packages;
  if (options.arch_matrix) out += ArchMatrix(report, options.verbose);
  return out + (out.ends_with(summary) ? "" : "\n" + summary);
}

}  // namespace rocm_audit
