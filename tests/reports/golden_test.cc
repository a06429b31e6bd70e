// Golden files: what users see, whole, in every format, so that any change to it is a
// reviewed diff of tests/golden/. A fixed report built in code goes through every renderer;
// the demo tree (built with the real toolchain) goes through the command, its paths
// relative to the build directory. Regenerate after an intended change with
//   ROCM_AUDIT_UPDATE_GOLDEN=1 ctest --test-dir build -R Golden
// and review `git diff tests/golden`.
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "reports/gitlab_report.h"
#include "reports/html_report.h"
#include "reports/json_report.h"
#include "reports/junit_report.h"
#include "reports/sarif_report.h"
#include "reports/text_report.h"
#include "tests/support/sample_report.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

const std::string kGolden = std::string(ROCM_AUDIT_SOURCE_DIR) + "/tests/golden/";

// Equal to the golden file, or (when updating) written to it; a difference shows as diff -u.
void ExpectGolden(const std::string& name, const std::string& actual) {
  const std::string path = kGolden + name;
  if (std::getenv("ROCM_AUDIT_UPDATE_GOLDEN")) {
    WriteAll(path, actual);
    return;
  }
  std::string expected = ReadAll(path);
  if (expected == actual) return;
  TempDir t;
  WriteAll(t / "actual", actual);
  std::string diff;
  RunCommand("diff -u " + path + " " + t / "actual", &diff);
  ADD_FAILURE() << name << " differs from its golden file (ROCM_AUDIT_UPDATE_GOLDEN=1 to accept):\n" << diff;
}

// The tool's version is not part of what a golden file pins.
std::string WithoutVersion(std::string text) {
  const std::string version = "\"version\": \"" ROCM_AUDIT_VERSION "\"";
  for (size_t at; (at = text.find(version)) != std::string::npos;)
    text.replace(at, version.size(), "\"version\": \"<version>\"");
  return text;
}

// A dashboard's URI names the file on this machine (file:// outside the base): the build
// directory the diff pairs are in is not part of what is pinned.
std::string WithoutDiffPairs(std::string out) {
  const std::string pairs = ROCM_AUDIT_DIFF_PAIRS;
  for (size_t at; (at = out.find(pairs)) != std::string::npos;) out.replace(at, pairs.size(), "<diff-pairs>");
  return out;
}

TEST(Golden, EveryFormatOfAFixedReport) {
  const Report r = GoldenReport();
  ExpectGolden("fixed.txt", RenderText(r, TextOptions{}));
  TextOptions verbose;
  verbose.verbose = true;
  ExpectGolden("fixed.verbose.txt", RenderText(r, verbose));
  TextOptions quiet;
  quiet.quiet = true;
  quiet.min_severity = Severity::kError;
  ExpectGolden("fixed.quiet.txt", RenderText(r, quiet));
  ExpectGolden("fixed.json", WithoutVersion(RenderJson(r, Severity::kError, false)));
  ExpectGolden("fixed.sarif", WithoutVersion(RenderSarif(r, {"/p", 1})));
  ExpectGolden("fixed.junit.xml", RenderJunit(r, Severity::kError, false));
  ExpectGolden("fixed.gitlab.json", RenderGitlab(r, "/p"));
  ExpectGolden("fixed.html", RenderHtml(r));
}

// The demo tree through the command. Its device-code inventory (sizes the compiler
// decides) and the host's ld.so.conf are left out; everything else is pinned.
TEST(Golden, DemoTreeTextAndJson) {
  const std::string build = std::string(ROCM_AUDIT_DEMO_TREE) + "/..";
  const std::string audit = "cd " + build + " && " + ROCM_AUDIT_BINARY +
                            " --no-progress --ld-so-conf /nonexistent --fail-on none demo-tree ";
  std::string text, json;
  ASSERT_EQ(RunCommand(audit, &text), 0);
  size_t device = text.find("\ndevice code");
  size_t after = device == std::string::npos ? device : text.find("\n\n", device + 1);
  if (device != std::string::npos)
    text.erase(device, after == std::string::npos ? std::string::npos : after - device);
  ExpectGolden("demo.txt", text);
  ASSERT_EQ(RunCommand(audit + "--format json --files none", &json), 0);
  ExpectGolden("demo.json", WithoutVersion(json));
}

// Hosts of the installed world and a CMake package (fixtures/make_hosts_tree.sh), audited as
// installed (--root): the MPI profiling library's finding naming its host, the thread
// debugging library's notes naming the debugger that is not there, their files[].plugin, and
// the text report's "cmake packages:" line with files[].cmake. The root's absolute path is
// the build directory's: shown as <hosts-tree>.
TEST(Golden, PluginHostsAndCMakePackageTextAndJson) {
  const std::string tree = ROCM_AUDIT_HOSTS_TREE;
  const std::string audit =
      "cd " + tree + "/.. && " + ROCM_AUDIT_BINARY +
      " --no-progress --ld-so-conf /nonexistent --fail-on none --root hosts-tree hosts-tree ";
  auto placeholder = [&](std::string text) {
    for (size_t at; (at = text.find(tree)) != std::string::npos;)
      text.replace(at, tree.size(), "<hosts-tree>");
    return text;
  };
  std::string text, json;
  ASSERT_EQ(RunCommand(audit, &text), 0);
  ExpectGolden("hosts.txt", placeholder(text));
  ASSERT_EQ(RunCommand(audit + "--format json", &json), 0);
  ExpectGolden("hosts.json", placeholder(WithoutVersion(json)));
}

#if ROCM_AUDIT_EXTERNAL_TESTS  // the package tree is made with zstd(1), an external test's tool
// Packages through the command (fixtures/make_packages.sh): two .debs installed together and
// a hostile tar, as users see them: PACKAGE:/member paths, inputs.packages, the refusals.
TEST(Golden, PackagesTextAndJson) {
  const std::string audit = std::string("cd ") + ROCM_AUDIT_PACKAGE_TREE + " && " + ROCM_AUDIT_BINARY +
                            " --no-progress --ld-so-conf /nonexistent --fail-on none "
                            "librocuser1_1.2.3-1_amd64.deb librocdep1_1.2.3-1_amd64.deb hostile/links.tar ";
  std::string text, json;
  ASSERT_EQ(RunCommand(audit, &text), 0);
  ExpectGolden("packages.txt", text);
  ASSERT_EQ(RunCommand(audit + "--format json --files none", &json), 0);
  ExpectGolden("packages.json", WithoutVersion(json));
}
#endif

// diff OLD NEW (fixtures/make_diff_pairs.sh) through the command, in every format that shows
// findings: what each break looks like and whom it hits.
TEST(Golden, DiffEveryFormat) {
  const std::string diff = std::string("cd ") + ROCM_AUDIT_DIFF_PAIRS + " && " + ROCM_AUDIT_BINARY +
                           " diff --no-progress --ld-so-conf /nonexistent --fail-on none diff/old diff/new ";
  for (const auto& [format, golden] : {std::pair<std::string, std::string>{"text", "diff.txt"},
                                       {"json", "diff.json"},
                                       {"sarif --base-uri /p", "diff.sarif"},
                                       {"html", "diff.html"}}) {
    std::string out;
    ASSERT_EQ(RunCommand(diff + "--format " + format, &out), 0) << format;
    ExpectGolden(golden, WithoutVersion(WithoutDiffPairs(out)));
  }
}

// diff of two .deb sets (fixtures/make_diff_pairs.sh, trans/): OLD's libt1 and t-tools, NEW's
// libt2 (a binNMU of source tlib) that Conflicts with libt1, and t-tools unchanged. What each
// format says of the packages: the verdict with source and versions, first (text, HTML),
// verdicts[] (JSON), a package-verdict result at the .deb (SARIF), a test case (JUnit).
TEST(Golden, DiffOfPackagesEveryFormat) {
  const std::string diff =
      std::string("cd ") + ROCM_AUDIT_DIFF_PAIRS + " && " + ROCM_AUDIT_BINARY +
      " diff --no-progress --no-base --ld-so-conf /nonexistent --fail-on none --from "
      "trans/old/libt1_1.0-1_amd64.deb trans/old/t-tools_1.0-1_amd64.deb --to "
      "trans/conflicts/libt2_2.0-1+b1_amd64.deb trans/conflicts/t-tools_1.0-1_amd64.deb ";
  for (const auto& [format, golden] : {std::pair<std::string, std::string>{"text", "diff-packages.txt"},
                                       {"json", "diff-packages.json"},
                                       {"sarif --base-uri /p", "diff-packages.sarif"},
                                       {"junit", "diff-packages.junit.xml"},
                                       {"html", "diff-packages.html"}}) {
    std::string out;
    ASSERT_EQ(RunCommand(diff + "--format " + format, &out), 0) << format;
    ExpectGolden(golden, WithoutVersion(WithoutDiffPairs(out)));
  }
}

// `rocm-audit index` (engine/consumer_index.h) of two .debs (fixtures/make_diff_pairs.sh,
// sets/): a JSON line per loadable ELF file, whole, as a farm's jobs write them to be
// concatenated; paths are installed paths and versions the packages', stable across machines.
TEST(Golden, ConsumerIndexLines) {
  const std::string index = std::string("cd ") + ROCM_AUDIT_DIFF_PAIRS + " && " + ROCM_AUDIT_BINARY +
                            " index sets/old/libpa1_1.0-1_amd64.deb sets/consumer/pa-user_3.0-1_amd64.deb";
  std::string out;
  ASSERT_EQ(RunCommand(index, &out), 0);
  ExpectGolden("index.jsonl", WithoutVersion(out));
}

// The trees the goldens pin, copied below a directory whose name has spaces, a comma and a
// parenthesis, and audited there: every path of this machine a message or hint names is
// shown below its input (or its root), so the directory's name never appears in one. A
// check that puts a host path in its words instead of naming it (HostPath, PathText) shows
// it raw; so did the scan of words that found paths between spaces.
TEST(Golden, NoHostPathIsLeftInTheWordsOfAFinding) {
  TempDir t;
  const std::string marker = "raw host, (marker) dir";
  const std::string dir = t / marker;
  ASSERT_EQ(RunCommand("mkdir -p '" + dir + "'"), 0);
  std::vector<std::string> runs;
  for (const std::string& tree : {std::string(ROCM_AUDIT_DEMO_TREE), std::string(ROCM_AUDIT_HOSTS_TREE),
                                  std::string(ROCM_AUDIT_CMAKE_TREE), std::string(ROCM_AUDIT_GPU_TREE)}) {
    ASSERT_EQ(RunCommand("cp -a '" + tree + "' '" + dir + "/'"), 0) << tree;
    const std::string copy = dir + "/" + tree.substr(tree.rfind('/') + 1);
    runs.push_back("'" + copy + "'");
    runs.push_back("--root '" + copy + "' '" + copy + "'");
  }
  // The walk's problems: a dangling link, a loop, a FIFO, a link out of the tree.
  const std::string walk = dir + "/walk";
  ASSERT_EQ(
      RunCommand("mkdir -p '" + walk + "/lib' && cd '" + walk + "/lib' && ln -s nothing libgone.so && " +
                 "ln -s loop libloop.so && ln -s libloop.so loop && mkfifo fifo && ln -s /tmp tmp"),
      0);
  runs.push_back("'" + walk + "'");
  runs.push_back("--root '" + walk + "' '" + walk + "'");
#if ROCM_AUDIT_EXTERNAL_TESTS  // the package tree is made with zstd(1), an external test's tool
  ASSERT_EQ(RunCommand(std::string("cp -a '") + ROCM_AUDIT_PACKAGE_TREE + "' '" + dir + "/'"), 0);
  const std::string packages = dir + "/package-tree/";
  runs.push_back("'" + packages + "librocuser1_1.2.3-1_amd64.deb' '" + packages +
                 "librocdep1_1.2.3-1_amd64.deb' '" + packages + "hostile/links.tar'");
#endif
  size_t findings = 0;
  for (const std::string& run : runs) {
    std::string out;
    ASSERT_EQ(
        RunCommand(std::string(ROCM_AUDIT_BINARY) +
                       " --no-progress --ld-so-conf /nonexistent --fail-on none --format json --files none " +
                       run,
                   &out),
        0)
        << run;
    const nlohmann::json report = nlohmann::json::parse(out);
    for (const nlohmann::json& f : report.at("findings")) {
      ++findings;
      for (const char* text : {"message", "hint"})
        EXPECT_EQ(f.value(text, "").find(marker), std::string::npos)
            << run << ": " << f.value("check", "") << "'s " << text << ": " << f.value(text, "");
    }
  }
  EXPECT_GT(findings, 100u);
}

}  // namespace
}  // namespace rocm_audit::testing
