// The installed command: arguments, exit status, and --help matching the parser.
#include "audit/cli.h"

#include <gtest/gtest.h>

#include "checks/registry.h"
#include "tests/test_support.h"

namespace rocm_audit::testing {
namespace {

const std::string kBin = ROCM_AUDIT_BINARY;

TEST(Cli, ExitStatusFollowsFailOn) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
      "mklib clean/lib/libok.so libok.so 'int ok(void) { return 0; }' -nostdlib\n"
      "mklib warn/lib/libw.so libw.so 'int w(void) { return 0; }' -nostdlib -Wl,-rpath,/build/w\n"
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
  EXPECT_NE(junit.find("<testsuites>"), std::string::npos);
}

TEST(Cli, ParsesRepeatableAndColonSeparatedOptions) {
  CliOptions o;
  std::string error;
  ASSERT_TRUE(ParseArguments({"--library-path", "/a:/b", "--library-path=/c", "--forbid-rpath", "/opt/*",
                              "-j3", "--fail-on", "note", "-q", "p1", "--", "-p2"}, &o, &error)) << error;
  EXPECT_EQ(o.audit.library_path, (std::vector<std::string>{"/a", "/b", "/c"}));
  EXPECT_EQ(o.audit.checks.forbid_rpath, std::vector<std::string>{"/opt/*"});
  EXPECT_EQ(o.audit.jobs, 3u);
  EXPECT_EQ(o.fail_on, Severity::kNote);
  EXPECT_TRUE(o.quiet);
  EXPECT_EQ(o.audit.paths, (std::vector<std::string>{"p1", "-p2"}));
}

// Every option the parser accepts is documented in --help, and the reverse.
TEST(Cli, HelpListsEveryOption) {
  std::string help = HelpText();
  for (const char* opt : {"--root", "--library-path", "--ld-so-conf", "--forbid-rpath", "--format", "--output",
                          "--fail-on", "--quiet", "--color", "--no-progress", "--jobs", "--list-checks",
                          "--version", "--help"}) {
    EXPECT_NE(help.find(opt), std::string::npos) << opt;
    if (std::string(opt) == "--help" || std::string(opt) == "--version" || std::string(opt) == "--list-checks" ||
        std::string(opt) == "--quiet" || std::string(opt) == "--no-progress")
      continue;
    CliOptions o;
    std::string error;
    ParseArguments({opt}, &o, &error);
    EXPECT_EQ(error, std::string(opt) + " needs a value") << opt;
  }
}

TEST(Cli, ManPageDocumentsEveryOptionAndCheck) {
  std::string man;
  ASSERT_EQ(RunCommand("cat " ROCM_AUDIT_FIXTURES_DIR "/../docs/rocm-audit.1", &man), 0);
  for (const char* opt : {"root", "library-path", "ld-so-conf", "forbid-rpath", "format", "output", "fail-on",
                          "quiet", "color", "no-progress", "jobs", "list-checks", "version", "help"})
  {
    std::string escaped = "\\-\\-";
    for (const char* c = opt; *c; ++c) escaped += *c == '-' ? std::string("\\-") : std::string(1, *c);
    EXPECT_NE(man.find(escaped), std::string::npos) << opt;
  }
  for (const CheckInfo& c : AllChecks()) {
    std::string id(c.id);
    std::string escaped;
    for (char ch : id) escaped += ch == '-' ? std::string("\\-") : std::string(1, ch);
    EXPECT_NE(man.find(escaped), std::string::npos) << id;
  }
}

TEST(Cli, ListChecksPrintsEveryCheck) {
  std::string out;
  ASSERT_EQ(RunCommand(kBin + " --list-checks", &out), 0);
  for (const CheckInfo& c : AllChecks()) EXPECT_NE(out.find(std::string(c.id)), std::string::npos) << c.id;
}

}  // namespace
}  // namespace rocm_audit::testing
