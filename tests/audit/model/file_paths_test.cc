// ForEachPath (audit/model/file_paths.h) names a file's path fields once for the display and
// both of diff's sides. What is a path is held here against the JSON writer, the one place
// that names every field of files[]: a file whose every string is a marker "/in/<field>" is
// written, and each marker the writer writes is either a path ForEachPath visits or listed
// below as no path. Then each user of ForEachPath rewrites exactly the paths: a walker that
// missed a field would leave its marker as it was.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "audit/fs/path_display.h"
#include "audit/model/file_paths.h"
#include "cli/shown_report.h"
#include "diff/side.h"
#include "reports/file_facts_json.h"
#include "reports/json_report.h"

namespace rocm_audit {
namespace {

using Json = nlohmann::ordered_json;

std::string M(const char* field) { return std::string("/in/") + field; }

CMakePackageFacts EveryCMakeField() {
  CMakePackageFacts c;
  c.package = M("cmake.package");
  c.version = M("cmake.version");
  c.targets = {{M("cmake.targets.name"),
                M("cmake.targets.type"),
                {M("cmake.targets.locations")},
                {M("cmake.targets.include_dirs")}}};
  c.includes = {M("cmake.includes")};
  c.dependencies = {{M("cmake.dependencies.name"),
                     M("cmake.dependencies.version"),
                     M("cmake.dependencies.found"),
                     M("cmake.dependencies.via"),
                     {M("cmake.dependencies.targets")}}};
  c.missing = {{M("cmake.missing.path"), M("cmake.missing.via"), M("cmake.missing.in"), 3, true}};
  c.components = {M("cmake.components")};
  c.result_variables = {M("cmake.result_variables")};
  return c;
}

DeviceFacts EveryDeviceField() {
  CodeObjectFacts co{0x40,
                     M("code_object.processor"),
                     M("code_object.xnack"),
                     M("code_object.sramecc"),
                     5,
                     3,
                     M("code_object.type"),
                     1};
  BundleEntryFacts entry{M("entries.id"),
                         M("entries.kind"),
                         M("entries.target_id"),
                         M("entries.processor"),
                         M("entries.features"),
                         0,
                         8,
                         M("entries.content"),
                         co};
  BundleFacts bundle{M("bundles.section"),
                     M("bundles.member"),
                     0,
                     0,
                     M("bundles.format"),
                     1,
                     M("bundles.compression"),
                     1,
                     2,
                     7,
                     true,
                     true,
                     {entry}};
  return DeviceFacts{{bundle}, {M("device_targets")}, 1, {}};
}

// A file with every part, each string set to the marker of its field.
FileFacts EveryField() {
  FileFacts f;
  f.path = M("path");
  f.kind = M("kind");
  ElfFacts e;
  e.machine = M("machine");
  e.soname = M("soname");
  e.has_dynamic = e.has_runpath = e.has_symbols = true;
  e.needed = {M("needed")};
  e.runpath = {M("runpath")};
  e.rpath = {M("rpath")};
  e.exports = {M("exports")};
  e.imports = {M("imports")};
  f.elf = std::move(e);
  f.archive_members = 2;
  f.non_elf_members = NonElfMemberFacts{1, {{M("non_elf_members.member"), M("non_elf_members.format")}}};
  f.device = EveryDeviceField();
  f.arch_data = ArchDataFacts{M("arch_data.library"), M("arch_data.dir"), {M("arch_data.processors")}};
  f.device_stack = DeviceStackFacts{{M("device_stack.libraries")}, {M("device_stack.common_targets")}};
  f.closure = ClosureFacts{{M("closure")}, {M("unresolved")}, {{M("closure.nodes.path"), "default", {}}}, 0};
  f.plugin = PluginFileFacts{M("plugin.rule"), M("plugin.host"), M("plugin.host_path"), 1};
  f.cmake = EveryCMakeField();
  return f;
}

// The strings files[] holds that are no path: names, versions, targets, quoted values.
const std::set<std::string> kNoPaths = {M("kind"),
                                        M("machine"),
                                        M("soname"),
                                        M("needed"),
                                        M("runpath"),
                                        M("rpath"),
                                        M("exports"),
                                        M("imports"),
                                        M("non_elf_members.member"),
                                        M("non_elf_members.format"),
                                        M("bundles.section"),
                                        M("bundles.member"),
                                        M("bundles.format"),
                                        M("bundles.compression"),
                                        M("entries.id"),
                                        M("entries.kind"),
                                        M("entries.target_id"),
                                        M("entries.processor"),
                                        M("entries.features"),
                                        M("entries.content"),
                                        M("code_object.processor"),
                                        M("code_object.xnack"),
                                        M("code_object.sramecc"),
                                        M("code_object.type"),
                                        M("device_targets"),
                                        M("arch_data.library"),
                                        M("arch_data.processors"),
                                        M("device_stack.common_targets"),
                                        M("unresolved"),
                                        M("plugin.rule"),
                                        M("plugin.host"),
                                        M("cmake.package"),
                                        M("cmake.version"),
                                        M("cmake.targets.name"),
                                        M("cmake.targets.type"),
                                        M("cmake.dependencies.name"),
                                        M("cmake.dependencies.version"),
                                        M("cmake.dependencies.targets"),
                                        M("cmake.missing.via"),
                                        M("cmake.components"),
                                        M("cmake.result_variables")};

// The markers `j` holds; `empty` gathers where it holds an empty string or list.
void Markers(const Json& j, const std::string& at, std::set<std::string>* markers,
             std::vector<std::string>* empty) {
  if (j.is_string()) {
    const std::string& s = j.get_ref<const std::string&>();
    if (s.empty()) empty->push_back(at);
    if (s.starts_with("/in/")) markers->insert(s);
  } else if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) Markers(it.value(), at + "." + it.key(), markers, empty);
  } else if (j.is_array()) {
    if (j.empty()) empty->push_back(at);
    for (const Json& e : j) Markers(e, at + "[]", markers, empty);
  }
}

// The markers files[] holds of `f`, the empty strings and lists in `empty`.
std::set<std::string> MarkersWritten(const FileFacts& f, std::vector<std::string>* empty = nullptr) {
  std::set<std::string> markers;
  std::vector<std::string> ignored;
  Markers(FileFactsToJson(f), "files[]", &markers, empty ? empty : &ignored);
  return markers;
}

std::set<std::string> PathsVisited(FileFacts f) {
  std::set<std::string> visited;
  ForEachPath(f, [&](std::string& p) { visited.insert(p); });
  return visited;
}

TEST(FilePaths, EveryStringOfFilesIsAPathOrNamedAsNone) {
  const FileFacts f = EveryField();
  std::vector<std::string> empty;
  const std::set<std::string> written = MarkersWritten(f, &empty);
  // Every field the writer writes is set, so that a new one is seen here.
  EXPECT_THAT(empty, ::testing::IsEmpty()) << "EveryField() leaves them empty: set them";
  const std::set<std::string> paths = PathsVisited(f);
  std::set<std::string> not_visited;
  for (const std::string& m : written)
    if (!paths.count(m)) not_visited.insert(m);
  // A path field ForEachPath does not visit shows up here; a field that is no path, in kNoPaths.
  EXPECT_EQ(not_visited, kNoPaths);
  // Every path visited is written, but the load graph's (for --tree only).
  for (const std::string& p : paths)
    if (p != M("closure.nodes.path")) EXPECT_TRUE(written.count(p)) << p;
  EXPECT_TRUE(paths.count(M("closure.nodes.path")));
}

TEST(FilePaths, TheDisplayShowsEveryPathAndNothingElse) {
  PathDisplay display;
  display.Map("/in", "shown");
  FileFacts f = EveryField();
  ShowPaths(display, f);
  EXPECT_EQ(MarkersWritten(f), kNoPaths);
  EXPECT_EQ(f.closure->nodes[0].path, "shown/closure.nodes.path");
  EXPECT_EQ(f.cmake->dependencies[0].found, "shown/cmake.dependencies.found");
}

// A message names its paths as data (Finding::SetMessage): each is shown whole, as the files
// are, where a scan of its words would stop at a space. A package member "a b.so" of a set
// is "x.deb:/usr/lib/a b.so", never the set's "/usr/lib/a" and the rest.
TEST(FilePaths, TheDisplayShowsThePathsAMessageNamesWhole) {
  PathDisplay display;
  display.Map("/u", "/");
  display.Map("/u/usr/lib/a b.so", "x.deb:/usr/lib/a b.so");
  Report report;
  Finding f;
  f.check = "unresolved-library";
  f.file = "/u/usr/lib/a b.so";
  f.SetMessage("needs " + HostPath("/u/usr/lib/a b.so") + " (direct, $ORIGIN/../lib)");
  f.SetHint("replace " + HostPath("/u/usr/lib/a b.so"));
  report.findings.push_back(f);
  ShowPaths(display, &report);
  EXPECT_EQ(report.findings[0].file, "x.deb:/usr/lib/a b.so");
  EXPECT_EQ(report.findings[0].message, "needs x.deb:/usr/lib/a b.so (direct, $ORIGIN/../lib)");
  EXPECT_EQ(report.findings[0].hint, "replace x.deb:/usr/lib/a b.so");
  EXPECT_TRUE(report.findings[0].message_paths.empty());  // shown: no host path is left to show
}

// The words of a message are never scanned for paths: an ar symbol table's name "/SYM64/" is
// no path (a scan of the words showed it as "/SYM64" under a root of "/"), whether the message
// was set with its paths or assigned whole.
TEST(FilePaths, TheWordsOfAMessageAreNotScanned) {
  PathDisplay display;
  display.Map("/", "/");
  Report report;
  Finding f;
  f.SetMessage("symbol table /SYM64/ entry 0 names member offset 9");
  Finding whole;
  whole.message = f.message;
  report.findings = {f, whole};
  ShowPaths(display, &report);
  EXPECT_EQ(report.findings[0].message, "symbol table /SYM64/ entry 0 names member offset 9");
  EXPECT_EQ(report.findings[1].message, "symbol table /SYM64/ entry 0 names member offset 9");
}

TEST(FilePaths, ATreeSidePutsEveryPathBelowItsInput) {
  Report report;
  report.inputs.paths = {"/in"};
  report.files.push_back(EveryField());
  const Side side = SideOfReport({"/in"}, std::move(report));
  ASSERT_EQ(side.files.size(), 1u);
  std::set<std::string> left = kNoPaths;
  left.erase(M("unresolved"));  // the side keeps no unresolved names
  EXPECT_EQ(MarkersWritten(side.files[0]), left);
  EXPECT_EQ(side.files[0].path, "in/path");
  EXPECT_EQ(side.files[0].cmake->missing[0].file, "in/cmake.missing.in");
}

TEST(FilePaths, AReportSidePutsEveryPathItReadsBelowItsInput) {
  Report report;
  report.inputs.paths = {"/in"};
  report.counts["elf"] = 1;
  report.files.push_back(EveryField());
  const std::string json = RenderJson(report, Severity::kError, false);
  Side side;
  std::string error;
  ASSERT_EQ(SideOfJsonReport("old.json", json, &side, &error), ReportSide::kSide) << error;
  ASSERT_EQ(side.files.size(), 1u);
  const std::set<std::string> read = PathsVisited(side.files[0]);
  // What the comparison reads of files[]: the path, the closure, Tensile data, CMake dependencies.
  EXPECT_THAT(read, ::testing::IsSupersetOf({"in/path", "in/closure", "in/arch_data.dir",
                                             "in/cmake.dependencies.found", "in/cmake.dependencies.via"}));
  for (const std::string& p : read) EXPECT_FALSE(p.starts_with('/')) << p;
}

}  // namespace
}  // namespace rocm_audit
