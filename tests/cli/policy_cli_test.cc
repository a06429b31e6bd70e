// The policy as a packager uses it, on the demo tree: waivers with reasons, a baseline
// round trip, check selection and severities, --explain and --list-checks --format json.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::AllOf;
using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::Not;

const std::string kBin = std::string(ROCM_AUDIT_BINARY) + " --no-progress --ld-so-conf /nonexistent ";
const std::string kDemo = ROCM_AUDIT_DEMO_TREE;

nlohmann::json Json(const std::string& path) { return nlohmann::json::parse(ReadAll(path)); }

size_t Counted(const nlohmann::json& report, const std::string& check) {
  size_t n = 0;
  for (const auto& f : report["findings"]) n += f["check"] == check && !f.contains("suppressed");
  return n;
}

// Every error of the demo tree, each accepted with a reason.
const char* kDemoErrorWaivers =
    "# The demo tree's planted defects, accepted for this test\n"
    "undefined-symbol   libMIOpen.so       LLVMInitializeX86*  # the consumer links rockCompiler's X86 "
    "backend\n"
    "unresolved-library bin/rocm-demo      libroctx64.so       # roctracer is optional at run time\n"
    "unresolved-library gpu/*              libamdhip64.so      # the GPU part is installed next to a HIP "
    "runtime\n"
    "missing-version    libhipfft.so*      LIBROCFFT_2.0       # rocFFT 2 ships in the same release\n"
    "missing-arch-data  librocblas.so.4                        # Tensile data comes from another package\n"
    "bundle-id-mismatch mislabelled.hsaco                      # planted: a mislabelled code object\n"
    "rpath-build-dir    librocblas.so.4                        # planted: a build-tree RUNPATH\n";

TEST(PolicyCli, WaiversWithReasonsPassTheGateAndStayInTheReport) {
  TempDir t;
  WriteAll(t / "w", kDemoErrorWaivers);
  EXPECT_EQ(RunCommand(kBin + kDemo), 1);
  EXPECT_EQ(RunCommand(kBin + "--suppress " + t / "w --format json -o " + t / "r.json " + kDemo), 0);
  auto r = Json(t / "r.json");
  EXPECT_EQ(r["summary"]["by_severity"]["error"], 0);
  EXPECT_EQ(r["summary"]["suppressed"]["waiver"], 13);
  EXPECT_EQ(r["summary"]["failed"], false);
  EXPECT_EQ(r["inputs"]["suppress"][0], t / "w");
  size_t miopen = 0;
  for (const auto& f : r["findings"]) {
    if (f["check"] != "undefined-symbol") continue;
    ASSERT_TRUE(f.contains("suppressed"));
    EXPECT_EQ(f["suppressed"]["kind"], "waiver");
    EXPECT_EQ(f["suppressed"]["reason"], "the consumer links rockCompiler's X86 backend");
    EXPECT_EQ(f["suppressed"]["source"], t / "w:2");
    ++miopen;
  }
  EXPECT_EQ(miopen, 5u);
  // The warnings still fail a stricter gate.
  EXPECT_EQ(RunCommand(kBin + "--suppress " + t / "w --fail-on warning " + kDemo), 1);
  // The text report says what it does not show.
  std::string text;
  RunCommand(kBin + "--suppress " + t / "w " + kDemo, &text);
  EXPECT_THAT(text, Not(HasSubstr("LLVMInitializeX86")));
  // The summary, last: no error, and the accepted ones counted apart.
  EXPECT_THAT(Lines(text).back(),
              AllOf(HasSubstr("; 0 errors, "), EndsWith("; not shown: 13 findings accepted by waivers")));
}

TEST(PolicyCli, AWaiverWithoutAReasonIsRefused) {
  TempDir t;
  WriteAll(t / "w", "undefined-symbol libMIOpen.so # fine\nundefined-symbol libMIOpen.so LLVM*\n");
  std::string err;
  EXPECT_EQ(RunCommand(kBin + "--suppress " + t / "w " + kDemo + " 2>&1", &err), 2);
  EXPECT_THAT(err, HasSubstr(t / "w:2: the waiver has no reason"));
  WriteAll(t / "typo", "undefined-symbol-x libMIOpen.so # typo\n");
  EXPECT_EQ(RunCommand(kBin + "--suppress " + t / "typo " + kDemo + " 2>/dev/null"), 2);
  EXPECT_EQ(RunCommand(kBin + "--suppress " + t / "missing " + kDemo + " 2>/dev/null"), 2);
}

TEST(PolicyCli, AWaiverThatMatchesNothingIsANote) {
  TempDir t;
  WriteAll(t / "w", std::string(kDemoErrorWaivers) + "undefined-symbol libnothing.so* # stale\n");
  EXPECT_EQ(RunCommand(kBin + "--suppress " + t / "w --format json -o " + t / "r.json " + kDemo), 0);
  auto r = Json(t / "r.json");
  ASSERT_EQ(Counted(r, "unused-waiver"), 1u);
  for (const auto& f : r["findings"])
    if (f["check"] == "unused-waiver") {
      EXPECT_EQ(f["severity"], "note");
      EXPECT_EQ(f["file"], t / "w");
      EXPECT_EQ(f["line"], 9);
    }
  EXPECT_EQ(RunCommand(kBin + "--suppress " + t / "w --fail-on note " + kDemo), 1);
}

TEST(PolicyCli, BaselineRoundTripFailsOnlyForNewDefects) {
  TempDir t;
  ASSERT_EQ(RunCommand("cp -a " + kDemo + " " + t / "tree"), 0);
  EXPECT_EQ(RunCommand("cd " + t.path() + " && " + kBin + "--format json -o base.json tree"), 1);
  auto base = Json(t / "base.json");
  const size_t known = base["findings"].size();
  ASSERT_GT(known, 20u);
  for (const auto& f : base["findings"]) EXPECT_THAT(f["key"].get<std::string>(), Not(HasSubstr(t.path())));
  // The same tree, from another directory and spelled as an absolute path: nothing new.
  EXPECT_EQ(RunCommand("cd / && " + kBin + "--fail-on note --baseline " + t / "base.json --format json -o " +
                       t / "same.json " + t / "tree"),
            0);
  EXPECT_EQ(Json(t / "same.json")["summary"]["suppressed"]["baseline"], known);
  // A new defect: a library whose dependency is nowhere.
  ASSERT_TRUE(BuildTree(t.path(),
                        "mklib dep/libgone.so.9 libgone.so.9 'int g(void) { return 1; }'\n"
                        "mklib tree/lib/libnew.so.1 libnew.so.1 'int g(void); int f(void) { return g(); }' "
                        "-Ldep -l:libgone.so.9\n"
                        "rm -r dep\n"));
  EXPECT_EQ(
      RunCommand(kBin + "--baseline " + t / "base.json --format json -o " + t / "new.json " + t / "tree"), 1);
  auto now = Json(t / "new.json");
  EXPECT_EQ(now["summary"]["suppressed"]["baseline"], known);
  EXPECT_GE(now["summary"]["findings"], 1);
  for (const auto& f : now["findings"])
    if (!f.contains("suppressed")) EXPECT_THAT(f["file"].get<std::string>(), HasSubstr("libnew")) << f;
}

// Issue 47: the hooks take the baseline from the source package being built. One finding
// field nested 30,000 deep overflowed the stack of the recursive reader (a segfault, no
// report); it is a tool error naming the file, at once.
TEST(PolicyCli, ABaselineNestedDeeperThanAReportIsAToolErrorNamingIt) {
  TempDir t;
  const std::string deep = std::string(30'000, '[') + std::string(30'000, ']');
  WriteAll(t / "deep.json",
           R"({"schema_version": 1, "findings": [{"check": "undefined-symbol", "symbol": )" + deep + "}]}");
  std::string err;
  EXPECT_EQ(RunCommand(kBin + "--baseline " + t / "deep.json " + kDemo + " 2>&1", &err), 2);
  EXPECT_THAT(err,
              HasSubstr("--baseline " + t / "deep.json" +
                        ": not a rocm-audit JSON report: nests deeper than 64 levels of arrays and objects"));
  // A report at the limit is read: its findings are accepted as they are.
  WriteAll(t / "edge.json", R"({"schema_version": 1, "findings": [{"check": "undefined-symbol", "symbol": )" +
                                std::string(61, '[') + std::string(61, ']') + "}]}");
  EXPECT_EQ(RunCommand(kBin + "--fail-on none --baseline " + t / "edge.json " + kDemo + " 2>&1", &err), 0)
      << err;
}

TEST(PolicyCli, SelectionAndSeverity) {
  TempDir t;
  EXPECT_EQ(
      RunCommand(kBin + "--disable undefined-symbol,missing-* --format json -o " + t / "r.json " + kDemo), 1);
  auto r = Json(t / "r.json");
  EXPECT_EQ(Counted(r, "undefined-symbol"), 0u);
  EXPECT_EQ(Counted(r, "missing-version"), 0u);
  EXPECT_GT(Counted(r, "unresolved-library"), 0u);
  auto disabled = r["summary"]["disabled_checks"].get<std::vector<std::string>>();
  EXPECT_NE(std::find(disabled.begin(), disabled.end(), "missing-arch-data"), disabled.end());
  // The demo's build-tree RUNPATH (rpath-build-dir) is an error.
  EXPECT_EQ(RunCommand(kBin + "--enable 'rpath-*' --format json -o " + t / "e.json " + kDemo), 1);
  auto enabled = Json(t / "e.json");
  for (const auto& f : enabled["findings"]) EXPECT_TRUE(f["check"].get<std::string>().starts_with("rpath-"));
  EXPECT_EQ(RunCommand(kBin + "--severity '*=warning' " + kDemo), 0);
  EXPECT_EQ(RunCommand(kBin + "--severity '*=warning' --fail-on warning " + kDemo), 1);
  EXPECT_EQ(RunCommand(kBin + "--disable no-such-check " + kDemo + " 2>/dev/null"), 2);
  EXPECT_EQ(RunCommand(kBin + "--severity undefined-symbol=fatal " + kDemo + " 2>/dev/null"), 2);
}

TEST(PolicyCli, SarifMarksAcceptedFindingsAsSuppressed) {
  TempDir t;
  WriteAll(t / "w", kDemoErrorWaivers);
  EXPECT_EQ(RunCommand(kBin + "--suppress " + t / "w --format sarif -o " + t / "r.sarif " + kDemo), 0);
  size_t suppressed = 0;
  auto sarif = Json(t / "r.sarif");  // range-for does not keep a temporary's parent alive
  for (const auto& result : sarif["runs"][0]["results"])
    if (result.contains("suppressions")) {
      EXPECT_EQ(result["suppressions"][0]["kind"], "external");
      EXPECT_FALSE(result["suppressions"][0]["justification"].get<std::string>().empty());
      ++suppressed;
    }
  EXPECT_EQ(suppressed, 13u);
}

TEST(PolicyCli, ExplainAndListChecks) {
  std::string out;
  EXPECT_EQ(RunCommand(kBin + "--explain undefined-symbol", &out), 0);
  for (const char* part : {"undefined-symbol (error)", "Example:", "Fix:", "--suppress", "symbol, version"})
    EXPECT_THAT(out, HasSubstr(part)) << part << "\n" << out;
  EXPECT_EQ(RunCommand(kBin + "--explain no-such-check 2>/dev/null"), 2);
  ASSERT_EQ(RunCommand(kBin + "--list-checks --format json", &out), 0);
  auto list = nlohmann::json::parse(out);
  EXPECT_EQ(list["schema_version"], 1);
  bool unused_waiver = false;
  for (const auto& c : list["checks"]) {
    EXPECT_FALSE(c["explanation"].get<std::string>().empty()) << c["id"];
    EXPECT_THAT(c["example"].get<std::string>(), HasSubstr("[" + c["id"].get<std::string>() + "]"))
        << c["id"];
    unused_waiver |= c["id"] == "unused-waiver";
  }
  EXPECT_TRUE(unused_waiver);
}

}  // namespace
}  // namespace rocm_audit::testing
