// The autopkgtest hook, run as autopkgtest runs a test: the Test-Command of the stanza the
// project documents (hooks/debian/autopkgtest/control), from the source tree, with
// $AUTOPKGTEST_TMP set and standard input closed, on packages built by the real
// dpkg-buildpackage and installed by the real dpkg. They are installed into a root of their
// own (dpkg --root; $DPKG_ROOT, which dpkg-query and the hook read) over a minimal sysroot of
// the host's libc, so the system running the test is never changed. The packages carry what
// every real package has and no PATH audit takes: changelogs, copyright files, man pages, a
// README, a dangling man-page link last in a package's file list.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/cli/debian_source_fixture.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const std::string kSource = ROCM_AUDIT_SOURCE_DIR;
const std::string kShipped = "/usr/share/rocm-audit/hooks/autopkgtest/";

// The value of `field` in the stanza (one line).
std::string Field(const std::string& stanza, const std::string& field) {
  size_t at = stanza.find(field + ": ");
  if (at == std::string::npos) return "";
  at += field.size() + 2;
  return stanza.substr(at, stanza.find('\n', at) - at);
}

// dpkg -i of the three packages of `version` (the -dbgsym packages are not in debian/control).
int Install(const TempDir& t, const std::string& version) {
  std::string out;
  int status = RunCommand("cd " + t.path() + " && dpkg --root=" + t / "root" +
                              " --force-not-root --force-depends -i libroctap1_" + version +
                              "_amd64.deb roctap-tools_" + version + "_amd64.deb libroctap-dev_" + version +
                              "_amd64.deb 2>&1",
                          &out);
  EXPECT_EQ(status, 0) << out;
  return status;
}

struct TestRun {
  int status;
  std::string out;
};

// The documented Test-Command, from the source tree, as autopkgtest runs it: stdin closed,
// $AUTOPKGTEST_TMP and $AUTOPKGTEST_ARTIFACTS set; stderr kept apart (allow-stderr).
TestRun RunAsAutopkgtest(const TempDir& t, const std::string& src) {
  const std::string stanza = ReadAll(kSource + "/hooks/debian/autopkgtest/control");
  std::string command = Field(stanza, "Test-Command");
  EXPECT_TRUE(command.starts_with(kShipped)) << command;
  command = kSource + "/hooks/debian/autopkgtest/" + command.substr(kShipped.size());
  TestRun run;
  run.status =
      RunCommand("mkdir -p " + t / "tmp" + " " + t / "artifacts" + " && cd " + src +
                     " && env AUTOPKGTEST_TMP=" + t / "tmp" + " AUTOPKGTEST_ARTIFACTS=" + t / "artifacts" +
                     " DPKG_ROOT=" + t / "root" + " PATH=" + RocmAuditBinDir() + ":$PATH sh -ec '" + command +
                     "' </dev/null 2>" + t / "stderr",
                 &run.out);
  run.out += "\n[stderr]\n" + ReadAll(t / "stderr");
  return run;
}

TEST(HooksAutopkgtest, StanzaIsWhatAutopkgtestReads) {
  const std::string stanza = ReadAll(kSource + "/hooks/debian/autopkgtest/control");
  EXPECT_EQ(Field(stanza, "Test-Command"), kShipped + "rocm-audit-installed");
  EXPECT_EQ(Field(stanza, "Depends"), "@, rocm-audit");
  EXPECT_THAT(Field(stanza, "Restrictions"), HasSubstr("allow-stderr"));
  // The stanza the README and the man page give is this one.
  for (const char* doc : {"/README.md", "/docs/dh_rocm_audit.1"}) {
    std::string text = ReadAll(kSource + doc);
    for (size_t at; (at = text.find("\\-")) != std::string::npos;) text.erase(at, 1);  // roff's "\-"
    for (const char* line : {"Test-Command: /usr/share/rocm-audit/hooks/autopkgtest/rocm-audit-installed",
                             "Depends: @, rocm-audit", "Restrictions: superficial, allow-stderr"})
      EXPECT_THAT(text, HasSubstr(line)) << doc;
  }
}

// The installed packages pass: their documents and the dangling man-page link are not opened
// as packages, and the loop over their files ends well whatever the last one is. Then a
// defect planted in the library, upgraded in place, fails the test; a package of the source
// that is not installed is named and left out.
TEST(HooksAutopkgtest, AuditsTheInstalledPackagesAsInstalledAndFailsOnlyOnFindings) {
  TempDir t;
  const std::string src = t / "roctap-1.0";
  WriteRoctapSource(src, {});
  std::string out;
  ASSERT_EQ(RunCommand(BuildPackageCommand(src), &out), 0) << out;
  MakeRoot(t / "root");
  ASSERT_EQ(Install(t, "1.0-1"), 0);
  TestRun run = RunAsAutopkgtest(t, src);
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_THAT(run.out,
              HasSubstr("rocm-audit-installed: auditing the installed packages libroctap1, roctap-tools, "
                        "libroctap-dev (14 files and links) as installed over " +
                        t / "root"))
      << run.out;
  EXPECT_THAT(run.out, Not(HasSubstr("changelog.Debian.gz"))) << run.out;
  EXPECT_THAT(run.out, Not(HasSubstr("error["))) << run.out;
  EXPECT_THAT(run.out, HasSubstr("rocm-audit-installed: no findings that fail the test")) << run.out;

  RoctapSource defect;
  defect.version = "1.1-1";
  defect.undefined_symbol = true;
  WriteRoctapSource(src, defect);
  ASSERT_EQ(RunCommand(BuildPackageCommand(src), &out), 0) << out;
  ASSERT_EQ(Install(t, "1.1-1"), 0);
  run = RunAsAutopkgtest(t, src);
  EXPECT_EQ(run.status, 1) << run.out;
  EXPECT_THAT(run.out, HasSubstr("undefined symbol roc_missing")) << run.out;
  EXPECT_THAT(run.out,
              HasSubstr("rocm-audit-installed: the installed packages have findings that fail the test"))
      << run.out;

  ASSERT_EQ(RunCommand("dpkg --root=" + t / "root" + " --force-not-root --force-depends -r roctap-tools 2>&1",
                       &out),
            0)
      << out;
  run = RunAsAutopkgtest(t, src);
  EXPECT_THAT(run.out, HasSubstr("rocm-audit-installed: not installed, not audited: roctap-tools\n"))
      << run.out;
  EXPECT_THAT(run.out, HasSubstr("auditing the installed packages libroctap1, libroctap-dev (")) << run.out;
}

}  // namespace
}  // namespace rocm_audit::testing
