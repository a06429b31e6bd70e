// Issue 34, the output side of the hostile-input tree (fixtures/make_hostile_tree.sh): what
// every format writes about names with control characters and bytes that are not UTF-8
// (names/), strings and lists too large for any report (a DT_NEEDED of 100 MB, a RUNPATH of
// 100,000 entries), and whether its messages are true (a chain of 45 links that is no loop,
// a path past PATH_MAX, a link to /proc/self/cwd). Each report is checked byte by byte.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>

#include <gmock/gmock.h>
#include <nlohmann/json.hpp>

#include "tests/support/terminal_output.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using Json = nlohmann::json;

const std::string kTree = ROCM_AUDIT_HOSTILE_TREE;
const std::string kNames = kTree + "/names";

TEST(HostileOutput, TextReportShowsControlsAndInvalidBytesEscaped) {
  for (const std::string& color : {"never", "always"}) {
    for (const std::string& quiet : {"", "-q"}) {
      Output o = RunAudit("--color " + color + " " + quiet + " " + kNames);
      EXPECT_EQ(o.status, 1);
      EXPECT_EQ(ControlIn(o.out, /*sgr=*/color == "always"), "") << color << quiet;
      EXPECT_TRUE(IsUtf8(o.out)) << color << quiet;
      // The DT_NEEDED that would have erased the line and written a clean summary over it.
      EXPECT_THAT(o.out, HasSubstr("libc.so.6\\x1b[2K\\x0drocm-audit: 0 files audited; no findings"));
      EXPECT_THAT(o.out, HasSubstr("lib/lib\\xfe.so"));
      EXPECT_THAT(o.out, HasSubstr("lib/lib\\xff.so"));
      EXPECT_THAT(o.out, HasSubstr("lib/lib\\x01\\x1b[31m\\xfe\\xff.so"));
      if (!quiet.empty()) continue;                                   // -q shows errors only
      EXPECT_THAT(o.out, HasSubstr("libgone\\x1b]0;owned\\x07.so"));  // a link's target
      EXPECT_THAT(o.out, HasSubstr("$ORIGIN/../lib\\x1b[31m"));       // a RUNPATH entry
    }
  }
}

TEST(HostileOutput, TreeAndErrorMessagesShowControlsEscaped) {
  Output tree = RunAudit("--tree " + kNames + "/bin/app " + kNames);
  EXPECT_EQ(tree.status, 1);  // the audit's findings decide, as for the report
  EXPECT_EQ(ControlIn(tree.out), "");
  EXPECT_THAT(tree.out, HasSubstr("libc.so.6\\x1b[2K\\x0drocm-audit"));
  // Names from the command line reach stderr escaped too.
  Output explain = RunAudit("--explain \"$(printf 'x\\033[2K\\ry')\"");
  EXPECT_EQ(explain.status, 2);
  EXPECT_EQ(ControlIn(explain.err), "");
  EXPECT_THAT(explain.err, HasSubstr("--explain x\\x1b[2K\\x0dy: no such check"));
  Output no_tree = RunAudit("--tree \"$(printf 'lib\\033[31m\\376.so')\" " + kNames);
  EXPECT_EQ(no_tree.status, 2);
  EXPECT_EQ(ControlIn(no_tree.err), "");
  EXPECT_TRUE(IsUtf8(no_tree.err));
  EXPECT_THAT(no_tree.err, HasSubstr("--tree lib\\x1b[31m\\xfe.so: not an executable"));
}

TEST(HostileOutput, JunitAndHtmlAreWellFormed) {
  TempDir t;
  ASSERT_EQ(RunAudit("--format junit -o " + t / "report.xml " + kNames).status, 1);
  const std::string junit = ReadAll(t / "report.xml");
  EXPECT_EQ(ControlIn(junit, false, /*tab=*/true), "");
  EXPECT_TRUE(IsUtf8(junit));
  std::string log;
  EXPECT_EQ(RunCommand("'" ROCM_AUDIT_XMLLINT "' --noout '" + t / "report.xml" + "' 2>&1", &log), 0) << log;
  EXPECT_THAT(junit, HasSubstr("lib/lib\\x01\\x1b[31m\\xfe\\xff.so"));
  ASSERT_EQ(RunAudit("--format html -o " + t / "report.html " + kNames).status, 1);
  const std::string html = ReadAll(t / "report.html");
  EXPECT_EQ(ControlIn(html, false, /*tab=*/true), "");
  EXPECT_TRUE(IsUtf8(html));
  EXPECT_THAT(html, HasSubstr("lib/lib\\xfe.so"));
  EXPECT_THAT(html, HasSubstr("lib/lib\\xff.so"));
}

// The malformed-file finding's `key` for each file of names/lib, by the file's JSON name.
std::map<std::string, std::string> KeysByFile(const Json& report) {
  std::map<std::string, std::string> out;
  for (const Json& f : report["findings"])
    if (f["check"] == "malformed-file") out[f["file"]] = f["key"];
  return out;
}

TEST(HostileOutput, JsonSarifAndGitlabKeepNamesThatAreNotUtf8Distinct) {
  Output o = RunAudit("--format json " + kNames);
  ASSERT_EQ(o.status, 1) << o.err;
  const Json report = Json::parse(o.out);  // strict UTF-8
  std::set<std::string> paths;
  for (const Json& f : report["files"]) paths.insert(f["path"]);
  // The bytes 0xFE and 0xFF, each as \xNN: two paths, two keys.
  EXPECT_TRUE(paths.count("lib/lib\\xfe.so") && paths.count("lib/lib\\xff.so")) << o.out.substr(0, 2000);
  EXPECT_TRUE(paths.count("lib/lib\x01\x1b[31m\\xfe\\xff.so"));  // controls are JSON's \u0001
  const auto keys = KeysByFile(report);
  ASSERT_TRUE(keys.count("lib/lib\\xfe.so") && keys.count("lib/lib\\xff.so"));
  EXPECT_EQ(keys.at("lib/lib\\xfe.so"), "malformed-file|lib/lib\\xfe.so");
  EXPECT_NE(keys.at("lib/lib\\xfe.so"), keys.at("lib/lib\\xff.so"));

  Output sarif = RunAudit("--format sarif --base-uri " + kNames + " " + kNames);
  const Json s = Json::parse(sarif.out);
  std::set<std::string> uris, fingerprints;
  size_t malformed = 0;
  for (const Json& r : s["runs"][0]["results"])
    if (r["ruleId"] == "malformed-file") {
      ++malformed;
      uris.insert(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]);
      fingerprints.insert(r["partialFingerprints"]["rocmAuditKey/v1"]);
    }
  EXPECT_EQ(malformed, 3u);
  EXPECT_EQ(uris.size(), 3u);
  EXPECT_EQ(fingerprints.size(), 3u);
  EXPECT_TRUE(uris.count("lib/lib%FE.so") && uris.count("lib/lib%FF.so"));

  Output gitlab = RunAudit("--format gitlab --base-uri " + kNames + " " + kNames);
  std::set<std::string> gitlab_paths, gitlab_fingerprints;
  for (const Json& issue : Json::parse(gitlab.out))
    if (issue["check_name"] == "malformed-file") {
      gitlab_paths.insert(issue["location"]["path"]);
      gitlab_fingerprints.insert(issue["fingerprint"]);
    }
  EXPECT_EQ(gitlab_paths.size(), 3u);
  EXPECT_EQ(gitlab_fingerprints.size(), 3u);
  EXPECT_TRUE(gitlab_paths.count("lib/lib\\xfe.so") && gitlab_paths.count("lib/lib\\xff.so"));
}

// The suppression kind ("" when counted) of the malformed-file finding of each file.
std::map<std::string, std::string> SuppressedByFile(const Json& report) {
  std::map<std::string, std::string> out;
  for (const Json& f : report["findings"])
    if (f["check"] == "malformed-file")
      out[f["file"]] = f.contains("suppressed") ? f["suppressed"]["kind"].get<std::string>() : "";
  return out;
}

// Valid UTF-8 that a terminal or a reviewer's eye misreads: U+009B (the 8-bit CSI), U+202E
// (right-to-left override) and DEL. JSON writes each as a \uNNNN escape, so that the raw
// report holds none of them and still decodes to the file's bytes; the text report shows
// them escaped as well.
TEST(HostileOutput, JsonEscapesCharactersAReaderMisreads) {
  TempDir t;
  std::filesystem::create_directories(t / "tree/lib");
  const std::vector<std::string> names = {
      "lib/lib\xc2\x9b"
      "31m.so",
      "lib/lib\xe2\x80\xaegp.so", "lib/lib\x7f.so"};
  for (const std::string& n : names) WriteAll(t / "tree/" + n, "\177ELF broken");
  Output o = RunAudit("--format json " + t / "tree");
  ASSERT_EQ(o.status, 1) << o.err;
  for (const char* raw : {"\xc2\x9b", "\xe2\x80\xae", "\x7f"})
    EXPECT_THAT(o.out, Not(HasSubstr(raw))) << "raw bytes of " << ::testing::PrintToString(std::string(raw));
  EXPECT_THAT(o.out, HasSubstr("lib/lib\\u009b31m.so"));
  EXPECT_THAT(o.out, HasSubstr("lib/lib\\u202egp.so"));
  EXPECT_THAT(o.out, HasSubstr("lib/lib\\u007f.so"));
  std::set<std::string> paths, keys;
  const Json report = Json::parse(o.out);
  for (const Json& f : report["findings"])
    if (f["check"] == "malformed-file") {
      paths.insert(f["file"]);
      keys.insert(f["key"]);
    }
  EXPECT_EQ(paths, std::set<std::string>(names.begin(), names.end()));  // decoded: the bytes
  EXPECT_EQ(keys.size(), 3u);
  // The report read back as a baseline accepts each of the three findings.
  WriteAll(t / "baseline.json", o.out);
  Output again = RunAudit("--format json --baseline " + t / "baseline.json " + t / "tree");
  EXPECT_EQ(SuppressedByFile(Json::parse(again.out)),
            (std::map<std::string, std::string>{
                {names[0], "baseline"}, {names[1], "baseline"}, {names[2], "baseline"}}));
  Output text = RunAudit("--color always " + t / "tree");
  EXPECT_EQ(ControlIn(text.out, /*sgr=*/true), "");
  EXPECT_THAT(text.out, Not(HasSubstr("\xe2\x80\xae")));
  EXPECT_THAT(text.out, HasSubstr("lib/lib\\u009b31m.so"));
  EXPECT_THAT(text.out, HasSubstr("lib/lib\\u202egp.so"));
  EXPECT_THAT(text.out, HasSubstr("lib/lib\\x7f.so"));
}

TEST(HostileOutput, ABaselineOrWaiverForOneNameDoesNotAcceptTheOther) {
  TempDir t;
  std::filesystem::create_directories(t / "tree/lib");
  WriteAll(t / "tree/lib/lib\xfe.so", "\177ELF broken");
  Output before = RunAudit("--format json -o " + t / "baseline.json " + t / "tree");
  ASSERT_EQ(before.status, 1) << before.err;
  WriteAll(t / "tree/lib/lib\xff.so", "\177ELF broken");
  WriteAll(t / "tree/lib/lib\\xfe.so", "\177ELF broken");  // the four characters, not the byte
  Output with_baseline = RunAudit("--format json --baseline " + t / "baseline.json " + t / "tree");
  EXPECT_EQ(with_baseline.status, 1);
  EXPECT_EQ(SuppressedByFile(Json::parse(with_baseline.out)),
            (std::map<std::string, std::string>{
                {"lib/lib\\xfe.so", "baseline"}, {"lib/lib\\xff.so", ""}, {"lib/lib\\\\xfe.so", ""}}));
  // A waiver names the file as the report writes it: \xfe is the byte, and nothing else.
  WriteAll(t / "waivers", "malformed-file lib/lib\\xfe.so # the one known broken file\n");
  Output waived = RunAudit("--format json --suppress " + t / "waivers " + t / "tree");
  EXPECT_EQ(SuppressedByFile(Json::parse(waived.out)),
            (std::map<std::string, std::string>{
                {"lib/lib\\xfe.so", "waiver"}, {"lib/lib\\xff.so", ""}, {"lib/lib\\\\xfe.so", ""}}));
}

TEST(HostileOutput, A100MbNameMakesABoundedReport) {
  Output json = RunAudit("--format json " + kTree + "/tree/huge-needed");
  ASSERT_EQ(json.status, 1) << json.err;
  EXPECT_LT(json.out.size(), 256u * 1024) << "bytes of JSON";
  const Json report = Json::parse(json.out);
  bool seen = false;
  for (const Json& f : report["findings"])
    if (f["check"] == "unresolved-library") {
      seen = true;
      const std::string library = f["library"];
      EXPECT_LT(library.size(), 8192u + 100);
      EXPECT_THAT(library, HasSubstr("... [99991814 more bytes, FNV-1a "));
    }
  EXPECT_TRUE(seen);
  Output text = RunAudit(kTree + "/tree/huge-needed");
  EXPECT_LT(text.out.size(), 256u * 1024) << "bytes of text";
}

TEST(HostileOutput, FindingsOfOneFileAreCappedAndCounted) {
  Output o = RunAudit("--format json " + kTree + "/tree/many-runpath");
  ASSERT_EQ(o.status, 1) << o.err;
  const Json report = Json::parse(o.out);
  // 100,000 RUNPATH entries, a build directory that does not exist each: 200,000 findings.
  size_t of_file = 0, left_out = 0;
  for (const Json& f : report["findings"]) {
    ++of_file;
    if (f["check"] == "finding-limit") {
      left_out = f["left_out"];
      EXPECT_EQ(f["limit"], 5000);
    }
  }
  EXPECT_EQ(of_file, 5001u);
  EXPECT_EQ(left_out, 195000u);
  EXPECT_LT(o.out.size(), 8u << 20);
  const Json ten =
      Json::parse(RunAudit("--format json --max-findings-per-file 10 " + kTree + "/tree/many-runpath").out);
  EXPECT_EQ(ten["findings"].size(), 11u);
  EXPECT_EQ(ten["summary"]["by_check"]["finding-limit"], 1);
}

// A 20 KB library whose 1,000 DT_NEEDED entries are suffixes of one 4 KB name (1,000 unresolved
// names of 3 to 4 KB each) made 42 MB of JSON. A file's findings now hold at most its budget of
// text, the larger of --max-report-bytes-per-file (256 KiB) and 16 times its size, and each
// list of its facts as much: every format's report stays within a few times that budget.
TEST(HostileOutput, AReportGrowsWithTheBytesAudited) {
  const std::string lib = kTree + "/shared/report/libneeded-4k-suffixes.so";
  const uint64_t size = std::filesystem::file_size(lib);
  const uint64_t budget = std::max<uint64_t>(256 << 10, 16 * size);
  for (const char* format : {"json", "text", "sarif", "junit", "gitlab", "html"}) {
    Output o = RunAudit(std::string("--format ") + format + " " + lib);
    EXPECT_EQ(o.status, 1) << format << o.err;
    EXPECT_LE(o.out.size(), 4 * budget) << format;
    EXPECT_GT(o.out.size(), budget / 4) << format;  // the budget is used, not a fixed few findings
  }
  const Json report = Json::parse(RunAudit("--format json " + lib).out);
  size_t unresolved = 0;
  Json limit;
  for (const Json& f : report["findings"]) {
    if (f["check"] == "unresolved-library") ++unresolved;
    if (f["check"] == "finding-limit") limit = f;
  }
  ASSERT_TRUE(limit.is_object());
  EXPECT_EQ(limit["byte_limit"], budget);
  EXPECT_EQ(limit["limit"], 5000);
  EXPECT_GT(unresolved, 10u);
  EXPECT_EQ(unresolved + limit["left_out"].get<size_t>(), 1000u);
  EXPECT_GT(limit["bytes_left_out"].get<uint64_t>(), 1000u * 3000 - unresolved * 4200);
  EXPECT_THAT(limit["message"].get<std::string>(),
              HasSubstr("(--max-report-bytes-per-file: " + std::to_string(budget) +
                        " bytes of text for this file, the larger of 262144 and 16 times its " +
                        std::to_string(size) + " bytes; the " + std::to_string(unresolved) + " most severe"));
  const Json& facts = report["files"][0];
  EXPECT_EQ(facts["needed"].size() + facts["needed_left_out"].get<size_t>(), 1000u);
  EXPECT_EQ(facts["unresolved"].size() + facts["unresolved_left_out"].get<size_t>(), 1000u);
  EXPECT_GT(facts["needed"].size(), 10u);
  // Raised, the cap leaves nothing out: it is what cut the report.
  const Json whole = Json::parse(RunAudit("--format json --max-report-bytes-per-file 64M " + lib).out);
  EXPECT_EQ(whole["summary"]["by_check"]["unresolved-library"], 1000);
  EXPECT_FALSE(whole["summary"]["by_check"].contains("finding-limit"));
  EXPECT_FALSE(whole["files"][0].contains("needed_left_out"));
}

// Findings of no one file (the whole-tree checks', the walk's, unpacking's) from inputs that
// hold 309 bytes of files: 1,000 dangling symlinks in a directory whose path is 2,412 bytes
// long, a CMake config whose loop imports 1,000 libraries at 2 KB paths that do not exist,
// and a 16 KB tar.gz of 1,000 members whose 2 KB names climb out of the tree made 23 MB of
// JSON. They share the tree's budget, the larger of --max-report-bytes-per-file and 16 times
// the bytes of the audited files, and the config's facts' lists each the config's: every
// format stays within a few times the two budgets.
TEST(HostileOutput, FindingsOfNoOneFileGrowWithTheBytesAudited) {
  const std::string tree = kTree + "/tree-findings/tree";
  const std::string inputs = tree + " " + kTree + "/tree-findings/climbing.tar.gz";
  const uint64_t audited = std::filesystem::file_size(tree + "/lib/cmake/Wide/WideConfig.cmake");
  const uint64_t budget = std::max<uint64_t>(256 << 10, 16 * audited);  // the tree's and the config's
  for (const char* format : {"json", "text", "sarif", "junit", "gitlab", "html"}) {
    Output o = RunAudit(std::string("--format ") + format + " " + inputs);
    EXPECT_EQ(o.status, 1) << format << o.err;
    EXPECT_LE(o.out.size(), 4 * 2 * budget) << format;
    EXPECT_GT(o.out.size(), budget / 4) << format;  // the budget is used, not a fixed few findings
  }
  const Json report = Json::parse(RunAudit("--format json " + inputs).out);
  std::map<std::string, size_t> reported;
  Json limit;
  for (const Json& f : report["findings"]) {
    ++reported[f["check"]];
    if (f["check"] == "finding-limit") limit = f;
  }
  ASSERT_TRUE(limit.is_object());
  EXPECT_EQ(limit["file"], "tree");  // the first PATH, named as the report names it
  EXPECT_EQ(limit["byte_limit"], budget);
  EXPECT_EQ(limit["limit"], 5000);
  // The most severe first: the refused members are errors, the dangling links warnings.
  EXPECT_GT(reported["package-member-refused"], 10u);
  EXPECT_EQ(reported["package-member-refused"] + reported["cmake-missing-file"] +
                reported["dangling-symlink"] + limit["left_out"].get<size_t>(),
            3000u);
  EXPECT_GT(limit["bytes_left_out"].get<uint64_t>(), 3000u * 2000 - budget - 16384);
  EXPECT_THAT(
      limit["message"].get<std::string>(),
      HasSubstr("more findings of the tree (" + std::to_string(limit["bytes_left_out"].get<uint64_t>()) +
                " bytes of text) left out of the report (--max-report-bytes-per-file: " +
                std::to_string(budget) + " bytes of text for the tree's findings"));
  EXPECT_THAT(limit["message"].get<std::string>(),
              HasSubstr("16 times the " + std::to_string(audited) + " bytes of the audited files"));
  ASSERT_EQ(report["files"].size(), 1u);
  const Json& cmake = report["files"][0]["cmake"];
  EXPECT_GT(cmake["targets"].size(), 10u);
  EXPECT_EQ(cmake["targets"].size() + cmake["targets_left_out"].get<size_t>(), 1000u);
  EXPECT_EQ(cmake["missing"].size() + cmake["missing_left_out"].get<size_t>(), 1000u);
  // Raised, the cap leaves nothing out: it is what cut the report.
  const Json whole = Json::parse(RunAudit("--format json --max-report-bytes-per-file 64M " + inputs).out);
  for (const char* check : {"package-member-refused", "cmake-missing-file", "dangling-symlink"})
    EXPECT_EQ(whole["summary"]["by_check"][check], 1000) << check;
  EXPECT_FALSE(whole["summary"]["by_check"].contains("finding-limit"));
  EXPECT_FALSE(whole["files"][0]["cmake"].contains("targets_left_out"));
}

// Over the host (--root /), DT_NEEDED /proc/self/exe would be the auditor itself, and a RUNPATH
// of /proc/self/cwd its working directory, which here holds a loadable libcwd.so.1: neither is
// what ld.so would find where the library runs, so neither is opened, and each search says why.
TEST(HostileOutput, PathsIntoProcAreNeverTheAuditorsOwn) {
  TempDir cwd;
  const std::string tree = kTree + "/tree/proc";
  std::filesystem::copy_file(tree + "/lib/libproc.so", cwd.path() + "/libcwd.so.1");
  Output o = RunAudit("--format json --root / " + tree, cwd.path());
  ASSERT_EQ(o.status, 1) << o.err;
  const Json report = Json::parse(o.out);
  std::map<std::string, Json> unresolved;
  Json relative;
  for (const Json& f : report["findings"]) {
    if (f["check"] == "unresolved-library") unresolved[f["library"]] = f;
    if (f["check"] == "rpath-relative") relative = f;
  }
  const std::string skipped =
      "skipped: in /proc, which shows the process and machine that open it (the auditor's own here), not "
      "files of the installed system";
  for (const char* name : {"/proc/self/exe", "/proc/1/root/lib/x86_64-linux-gnu/libc.so.6"}) {
    ASSERT_TRUE(unresolved.count(name)) << name;
    ASSERT_EQ(unresolved[name]["searched"].size(), 1u) << name;
    EXPECT_EQ(unresolved[name]["searched"][0]["outcome"], skipped) << name;
  }
  ASSERT_TRUE(unresolved.count("libcwd.so.1"));
  const Json& first = unresolved["libcwd.so.1"]["searched"][0];
  EXPECT_EQ(first["directory"], "/proc/self/cwd");
  EXPECT_EQ(first["outcome"], skipped);
  EXPECT_TRUE(report["files"][0]["closure"].empty()) << report["files"][0]["closure"];
  ASSERT_TRUE(relative.is_object());
  EXPECT_EQ(relative["entry"], "/proc/self/cwd");
  EXPECT_THAT(relative["message"].get<std::string>(),
              HasSubstr("points into /proc: the loader resolves it in "
                        "the process that loads the file"));
}

std::map<std::string, std::string> MessagesByFile(const Json& report) {
  std::map<std::string, std::string> out;
  for (const Json& f : report["findings"]) out[f["file"]] += f["message"].get<std::string>();
  return out;
}

TEST(HostileOutput, MessagesAreTrueAboutLinksAndLongPaths) {
  TempDir cwd;
  Output o = RunAudit("--format json " + kTree + "/tree/links", cwd.path());
  ASSERT_EQ(o.status, 1) << o.err;
  const auto messages = MessagesByFile(Json::parse(o.out));
  // 41 to 45 links without a cycle: the kernel's limit is the reason, not a loop.
  for (int n = 41; n <= 45; ++n) {
    const std::string file = "lib/libchain" + std::to_string(n) + ".so";
    ASSERT_TRUE(messages.count(file)) << file;
    EXPECT_THAT(messages.at(file), HasSubstr("more than 40 symbolic links"));
    EXPECT_THAT(messages.at(file), HasSubstr("no cycle"));
  }
  EXPECT_FALSE(messages.count("lib/libchain40.so"));  // 40 links resolve
  EXPECT_EQ(messages.at("lib/libcycle-a.so"), "symlink loops back on itself");
  // /proc/self/cwd is the auditing process's own directory: never shown as the target.
  ASSERT_TRUE(messages.count("lib/cwd"));
  EXPECT_THAT(messages.at("lib/cwd"),
              HasSubstr("links to /proc/self/cwd (in /proc: the auditing process's own state"));
  EXPECT_THAT(messages.at("lib/cwd"), Not(HasSubstr(cwd.path())));

  // A PATH past PATH_MAX exists, and is too long to open: not "no such file".
  std::string deep = kTree + "/tree/deep";
  for (int i = 0; i < 2100; ++i) deep += "/d";
  Output too_long = RunAudit(deep);
  EXPECT_EQ(too_long.status, 2);
  EXPECT_THAT(too_long.err, HasSubstr("too long to open (ENAMETOOLONG"));
  EXPECT_THAT(too_long.err, Not(HasSubstr("no such file")));
  // A RUNPATH entry the same.
  const auto rpath =
      MessagesByFile(Json::parse(RunAudit("--format json " + kTree + "/tree/long-runpath").out));
  ASSERT_TRUE(rpath.count("lib/liblong.so"));
  EXPECT_THAT(rpath.at("lib/liblong.so"), HasSubstr("too long to open"));
  EXPECT_THAT(rpath.at("lib/liblong.so"), Not(HasSubstr("does not exist")));
}

}  // namespace
}  // namespace rocm_audit::testing
