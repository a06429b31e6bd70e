#include "diff/side.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "audit/fs/path.h"
#include "audit/fs/path_display.h"
#include "audit/model/file_paths.h"
#include "audit/model/report_reader.h"
#include "audit/model/severity.h"
#include "engine/comparison_rules.h"

namespace rocm_audit {
namespace {

using Json = nlohmann::json;

std::vector<std::string> Strings(const Json& j, const char* name) {
  std::vector<std::string> out;
  auto it = j.find(name);
  if (it == j.end() || !it->is_array()) return out;
  for (const Json& v : *it)
    if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

std::string String(const Json& j, const char* name) {
  auto it = j.find(name);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

CMakePackageFacts CMakeOfJson(const Json& c) {
  CMakePackageFacts out;
  out.package = String(c, "package");
  out.version = String(c, "version");
  if (auto t = c.find("targets"); t != c.end() && t->is_array())
    for (const Json& target : *t)
      if (target.is_object()) out.targets.push_back({String(target, "name"), String(target, "type"), {}, {}});
  if (auto d = c.find("dependencies"); d != c.end() && d->is_array())
    for (const Json& dep : *d)
      if (dep.is_object())
        out.dependencies.push_back({String(dep, "name"), String(dep, "version"), String(dep, "found"),
                                    String(dep, "via"), Strings(dep, "targets")});
  out.components = Strings(c, "components");
  out.result_variables = Strings(c, "result_variables");
  return out;
}

// The facts of one files[] element that the comparison reads, each path below its input.
FileFacts FileOfJson(const Json& j) {
  FileFacts f;
  f.path = String(j, "path");
  f.kind = String(j, "kind");
  if (j.contains("machine")) {
    ElfFacts e;
    e.machine = String(j, "machine");
    e.soname = String(j, "soname");
    e.needed = Strings(j, "needed");
    e.has_dynamic = j.contains("needed");
    e.has_symbols = j.contains("exports");
    e.exports = Strings(j, "exports");
    e.imports = Strings(j, "imports");
    f.elf = std::move(e);
  }
  if (j.contains("device_targets")) f.device = DeviceFacts{{}, Strings(j, "device_targets"), 0, {}};
  if (auto a = j.find("arch_data"); a != j.end() && a->is_object())
    f.arch_data = ArchDataFacts{String(*a, "library"), String(*a, "dir"), Strings(*a, "processors")};
  if (auto c = j.find("cmake"); c != j.end() && c->is_object()) f.cmake = CMakeOfJson(*c);
  if (j.contains("closure")) f.closure = ClosureFacts{Strings(j, "closure"), {}, {}, 0};
  ForEachPath(f, [](std::string& path) { path = InstalledPath(path); });
  return f;
}

// The package file a report's path names ("PKG.deb:/usr/lib/x" -> "PKG.deb"), or "".
std::string PackageFileOf(std::string_view shown) {
  const size_t colon = shown.find(":/");
  if (colon == std::string_view::npos || colon == 0 ||
      shown.substr(0, colon).find('/') != std::string_view::npos)
    return "";
  return std::string(shown.substr(0, colon));
}

// What the report's inputs record of how it was audited (side->audited_with), and
// inputs.packages[] into side->packages, by the file name its paths show (PathDisplay
// names a member by its package's file name).
std::map<std::string, size_t, std::less<>> InputsOfJson(const Json& j, Side* side) {
  std::map<std::string, size_t, std::less<>> by_file;
  auto in = j.find("inputs");
  if (in == j.end() || !in->is_object()) return by_file;
  const Json* world = in->contains("world") && (*in)["world"].is_object() ? &(*in)["world"] : nullptr;
  const Json* baseline = in->contains("baseline") ? &(*in)["baseline"] : nullptr;
  side->audited_with =
      AuditedWith(world, world ? Strings(*world, "base") : std::vector<std::string>{}, Strings(*in, "roots"),
                  Strings(*in, "library_path"), Strings(*in, "ld_so_conf_dirs"), Strings(*in, "suppress"),
                  baseline && baseline->is_string() ? baseline->get<std::string>() : "");
  auto packages = in->find("packages");
  if (packages == in->end() || !packages->is_array()) return by_file;
  for (const Json& p : *packages) {
    if (!p.is_object()) continue;
    const std::string file = String(p, "file");
    by_file.emplace(file.substr(file.rfind('/') + 1), side->packages.size());
    side->packages.push_back({String(p, "name"),
                              file,
                              String(p, "version"),
                              String(p, "source"),
                              String(p, "source_version"),
                              {},
                              Strings(p, "conflicts"),
                              Strings(p, "breaks"),
                              Strings(p, "replaces")});
  }
  return by_file;
}

Finding FindingOfJson(const Json& j) {
  Finding f;
  f.check = String(j, "check");
  if (!ParseSeverity(String(j, "severity"), &f.severity))
    f.severity = Severity::kNote;  // unknown: the lowest
  f.file = InstalledPath(String(j, "file"));
  f.message = String(j, "message");
  f.key = String(j, "key");
  if (j.contains("suppressed")) f.suppressed = Suppression{"", "", ""};
  return f;
}

// summary.files_audited beyond what summary.files_by_kind counts. An audit audits only files
// its walk met and counted by kind (engine/tree_audit.cc: one audited file per walked one);
// a diff walks nothing (files_by_kind is empty) and counts NEW's audited files.
bool CountsFilesItNeverWalked(const Json& j) {
  auto summary = j.find("summary");
  if (summary == j.end() || !summary->is_object()) return false;
  auto audited = summary->find("files_audited");
  auto walked = summary->find("files_by_kind");
  if (audited == summary->end() || !audited->is_number_unsigned() || walked == summary->end() ||
      !walked->is_object())
    return false;
  uint64_t walked_files = 0;
  for (const Json& n : *walked)
    if (n.is_number_unsigned()) walked_files += n.get<uint64_t>();
  return audited->get<uint64_t>() > walked_files;
}

// The report of `diff` names its sides (inputs.old, inputs.new) and has verdicts. One written before it did
// is told by its summary (files audited that no walk met) or by its findings (an audit
// reports none of the comparison rules). A diff report with neither, no finding and no file
// of NEW audited, says what an audit of an empty NEW says: nothing to compare.
bool IsDiffReport(const Json& j) {
  if (auto in = j.find("inputs");
      in != j.end() && in->is_object() && (in->contains("old") || in->contains("new")))
    return true;
  if (j.contains("verdicts") || CountsFilesItNeverWalked(j)) return true;
  auto findings = j.find("findings");
  if (findings == j.end() || !findings->is_array() || findings->empty()) return false;
  static const std::set<std::string_view> kComparison = {
      kSymbolsRemovedRule.id, kSonameChangedRule.id,         kLibraryRemovedRule.id,
      kProcessorsLostRule.id, kCMakeInterfaceRemovedRule.id, kCMakeDependencyDroppedRule.id,
      kNewFindingRule.id,     kFixedFindingRule.id,          kSideUnreadableRule.id};
  return std::any_of(findings->begin(), findings->end(),
                     [](const Json& f) { return f.is_object() && kComparison.count(String(f, "check")); });
}

}  // namespace

std::map<std::string, std::string> AuditedWith(bool world, const std::vector<std::string>& base,
                                               const std::vector<std::string>& roots,
                                               const std::vector<std::string>& library_path,
                                               const std::vector<std::string>& ld_so_conf_dirs,
                                               const std::vector<std::string>& suppress,
                                               const std::string& baseline) {
  auto joined = [](const std::vector<std::string>& items, const char* none) {
    std::string out;
    for (const std::string& i : items) out += (out.empty() ? "" : ", ") + i;
    return out.empty() ? std::string(none) : out;
  };
  // A tree with no --root is judged against the host's own directories, as a package over /.
  const std::string over = world ? joined(base, "no base (--no-base)") : joined(roots, "/");
  return {{"base", over},
          {"library path", joined(library_path, "none")},
          {"ld.so.conf directories", joined(ld_so_conf_dirs, "none")},
          {"suppressions", joined(suppress, "none")},
          {"baseline", baseline.empty() ? "none" : baseline}};
}

const SidePackage* Side::PackageOf(std::string_view path) const {
  auto it = package_of.find(path);
  return it == package_of.end() ? nullptr : &packages[it->second];
}

bool Side::HasPackage(std::string_view name) const {
  return std::any_of(packages.begin(), packages.end(), [&](const SidePackage& p) { return p.name == name; });
}

std::string InstalledPath(std::string_view shown) {
  // PACKAGE:/member (design.md §5, Paths): the package's file name holds no '/'.
  const size_t colon = shown.find(":/");
  if (colon != std::string_view::npos && colon > 0 &&
      shown.substr(0, colon).find('/') == std::string_view::npos)
    shown.remove_prefix(colon + 2);
  while (shown.starts_with('/')) shown.remove_prefix(1);
  return std::string(shown);
}

namespace {

// The paths of a finished audit as the JSON report written of it shows them, by the report's
// own PathDisplay, so that a tree side and a report side of the same tree give the same files,
// closures and messages: below the input (as given, or with its symlinks resolved) that holds
// them; below the deepest directory the inputs of a set share (a set of trees,
// a/usr/lib/cmake and a/usr/lib/x86_64-linux-gnu/cmake: "cmake/...", "x86_64-linux-gnu/...");
// a file given alone by its name. The loader names a library it finds through
// "$ORIGIN/../lib" as "new/bin/../lib/libx.so.1", the report as "lib/libx.so.1" where both
// name the same file. A relative path outside every input stays as written, as it is shown.
class BelowInputs {
 public:
  /// `trees`: directories of the run that may be gone by now (a set's unpacked tree).
  BelowInputs(const std::vector<std::string>& inputs, const std::vector<std::string>& trees) {
    std::error_code ec;
    const std::string cwd = std::filesystem::current_path(ec).string();
    std::vector<std::string> absolute;
    std::string common;
    for (const std::string& in : inputs) {
      absolute.push_back(NormalizePath(in.starts_with('/') ? in : cwd + "/" + in));
      std::string dir = std::filesystem::is_directory(in, ec) ? absolute.back() : DirName(absolute.back());
      if (absolute.size() == 1) common = dir;
      while (!IsUnderDirectory(dir, common) && common != "/") common = DirName(common);
    }
    for (size_t i = 0; i < inputs.size(); ++i)
      Map(inputs[i], absolute[i] == common ? "" : absolute[i].substr(common == "/" ? 1 : common.size() + 1));
    for (const std::string& tree : trees) Map(tree, "");
  }

  std::string Path(const std::string& path) const { return InstalledPath(display_.Show(path)); }
  /// A finding's message with its paths shown (Finding::message_paths).
  std::string Message(const Finding& f) const {
    return FillPaths(
        f.message, f.message_paths, [&](std::string_view p) { return display_.ShowInText(p); },
        [](std::string_view words) { return std::string(words); });
  }

 private:
  void Map(const std::string& in, const std::string& shown) {
    display_.Map(in, shown);
    // A sentence that names the directory itself names it as it was given.
    if (shown.empty()) display_.NameInText(in, in);
    std::error_code ec;
    const std::filesystem::path real = std::filesystem::canonical(in, ec);
    if (!ec) {
      display_.Map(real.string(), shown);
      if (shown.empty()) display_.NameInText(real.string(), in);
    }
  }

  PathDisplay display_;
};

}  // namespace

Side SideOfReport(std::vector<std::string> given, Report&& report) {
  Side side;
  side.inputs = std::move(given);
  std::vector<std::string> trees;
  if (!report.inputs.unpacked_into.empty()) trees.push_back(report.inputs.unpacked_into);
  const BelowInputs below(report.inputs.paths, trees);
  side.files_audited = report.FilesAudited();
  side.base = report.inputs.installed_world ? report.inputs.base : report.inputs.roots;
  const ReportInputs& in = report.inputs;
  side.audited_with = AuditedWith(in.installed_world, in.base, in.roots, in.library_path, in.ld_so_conf_dirs,
                                  in.suppress_files, in.baseline_file);
  // A package's members are below the tree it was unpacked into, as the side's files are.
  for (const InputPackage& p : report.inputs.packages) {
    for (const std::string& m : p.members) side.package_of.emplace(InstalledPath(m), side.packages.size());
    side.packages.push_back({p.name, p.file, p.version, p.source, p.source_version, p.provides, p.conflicts,
                             p.breaks, p.replaces});
  }
  for (FileFacts& f : report.files) {
    // The closure's objects (below the input like the files) say who loads a library
    // indirectly; its load graph is for --tree only.
    if (f.closure) {
      f.closure->nodes = {};
      f.closure->unresolved = {};
    }
    ForEachPath(f, [&](std::string& path) { path = below.Path(path); });
    side.files.push_back(std::move(f));
  }
  for (Finding& f : report.findings) {
    f.file = below.Path(f.file);
    // Messages name files by their host paths until a command shows them: below the input.
    f.message = below.Message(f);
    f.message_paths.clear();
    side.findings.push_back(std::move(f));
  }
  return side;
}

ReportSide SideOfJsonReport(std::string input, std::string_view text, Side* side, std::string* error) {
  Json j;
  std::string why;
  // Read once, its names decoded to the bytes an audited side holds (audit/model/report_reader.h).
  if (!ReadJsonReport(text, &j, &why)) {
    if (why.find("nests deeper") == std::string::npos) return ReportSide::kNotAReport;
    // Nothing tells a report from another JSON file that deep: a tool error, never audited as
    // a file of a tree.
    *error = input + ": " + why;
    return ReportSide::kError;
  }
  if (!WrittenByRocmAudit(j)) return ReportSide::kNotAReport;
  if (!j.contains("files") || !j["files"].is_array()) {
    *error = input + ": not a rocm-audit JSON report of schema_version 1 with files[]";
    return ReportSide::kError;
  }
  if (IsDiffReport(j)) {
    *error =
        input +
        ": the report of a diff, not of an audit: give each side's audit report (--format json --symbols)";
    return ReportSide::kError;
  }
  side->inputs = {input};
  side->from_report = true;
  const std::map<std::string, size_t, std::less<>> by_file = InputsOfJson(j, side);
  for (const Json& f : j["files"])
    if (f.is_object()) {
      side->files.push_back(FileOfJson(f));
      if (auto p = by_file.find(PackageFileOf(String(f, "path"))); p != by_file.end())
        side->package_of.emplace(side->files.back().path, p->second);
    }
  if (auto it = j.find("findings"); it != j.end() && it->is_array())
    for (const Json& f : *it)
      if (f.is_object()) side->findings.push_back(FindingOfJson(f));
  side->files_audited = side->files.size();
  for (const FileFacts& f : side->files)
    if (f.elf && !f.elf->soname.empty() && !f.elf->has_symbols && f.elf->machine != "amdgpu") {
      *error = input + ": its files[] lists no symbols (" + f.path +
               "): write the report with --symbols to compare it";
      return ReportSide::kError;
    }
  return ReportSide::kSide;
}

}  // namespace rocm_audit
