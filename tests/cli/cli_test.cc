// The installed command: arguments, exit status, and --help matching the parser.
#include "cli/cli.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include "checks/registry.h"
#include "tests/support/audit_support.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;

const std::string kBin = ROCM_AUDIT_BINARY;

TEST(Cli, ExitStatusFollowsFailOn) {
  TempDir t;
  ASSERT_TRUE(BuildTree(
      t.path(),
      "mklib clean/lib/libok.so libok.so 'int ok(void) { return 0; }' -nostdlib\n"
      "mklib warn/lib/libw.so libw.so 'int w(void) { return 0; }' -nostdlib -Wl,-rpath,/opt/w/lib\n"
      "mklib err/lib/libe.so libe.so 'int missing(void); int e(void) { return missing(); }' -nostdlib"));
  std::string root = " --root " + t.path() + " ";
  EXPECT_EQ(RunCommand(kBin + root + t / "clean"), 0);
  EXPECT_EQ(RunCommand(kBin + root + t / "warn"), 0);
  EXPECT_EQ(RunCommand(kBin + root + "--fail-on warning " + t / "warn"), 1);
  EXPECT_EQ(RunCommand(kBin + root + t / "err"), 1);
  EXPECT_EQ(RunCommand(kBin + root + "--fail-on none " + t / "err"), 0);
}

TEST(Cli, UsageAndToolErrorsExitTwo) {
  EXPECT_EQ(RunCommand(kBin + " 2>/dev/null"), 2);
  EXPECT_EQ(RunCommand(kBin + " --format yaml /tmp 2>/dev/null"), 2);
  EXPECT_EQ(RunCommand(kBin + " --bogus /tmp 2>/dev/null"), 2);
  EXPECT_EQ(RunCommand(kBin + " /does/not/exist 2>/dev/null"), 2);
  EXPECT_EQ(RunCommand(kBin + " --root /does/not/exist /tmp 2>/dev/null"), 2);
  EXPECT_EQ(RunCommand(kBin + " --jobs 0 /tmp 2>/dev/null"), 2);
}

TEST(Cli, JsonToAFile) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), "mklib lib/libok.so libok.so 'int ok(void) { return 0; }' -nostdlib"));
  EXPECT_EQ(RunCommand(kBin + " --root " + t.path() + " --format=json -o " + t / "out.json " + t / "lib"), 0);
  std::string json;
  RunCommand("cat " + t / "out.json", &json);
  EXPECT_EQ(nlohmann::json::parse(json)["schema_version"], 1);
  std::string sarif, junit;
  EXPECT_EQ(RunCommand(kBin + " --root " + t.path() + " --format sarif " + t / "lib", &sarif), 0);
  EXPECT_EQ(nlohmann::json::parse(sarif)["version"], "2.1.0");
  EXPECT_EQ(RunCommand(kBin + " --root " + t.path() + " --format junit " + t / "lib", &junit), 0);
  EXPECT_THAT(junit, HasSubstr("<testsuites name=\"rocm-audit\""));
}

// A report that cannot be written is a tool error (exit 2), not a silent empty report.
TEST(Cli, AReportThatCannotBeWrittenExitsTwo) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), "mklib lib/libok.so libok.so 'int ok(void) { return 0; }' -nostdlib"));
  const std::string audit = kBin + " --root " + t.path() + " ";
  std::string err;
  EXPECT_EQ(RunCommand(audit + "--format json -o " + t / "no-such-dir/out.json " + t / "lib 2>&1", &err), 2);
  EXPECT_THAT(err, HasSubstr("cannot write " + t / "no-such-dir/out.json"));
  // A closed standard output everywhere; a full disk where the root has /dev/full.
  const bool full = access("/dev/full", W_OK) == 0;
  for (const char* format : {"json", "text", "sarif"}) {
    EXPECT_EQ(RunCommand(audit + "--format " + format + " " + t / "lib >&- 2>/dev/null"), 2) << format;
    if (full)
      EXPECT_EQ(RunCommand(audit + "--format " + format + " " + t / "lib > /dev/full 2>&1"), 2) << format;
    EXPECT_EQ(RunCommand(audit + "--format " + format + " " + t / "lib > /dev/null"), 0) << format;
  }
}

TEST(Cli, ListChecksPrintsEveryCheck) {
  std::string out;
  ASSERT_EQ(RunCommand(kBin + " --list-checks", &out), 0);
  for (const Rule* r : AllRules()) EXPECT_THAT(out, HasSubstr(std::string(r->id))) << r->id;
}

}  // namespace
}  // namespace rocm_audit::testing
