// dh_rocm_audit on a source of three binary packages, built with the real dpkg-buildpackage:
// every package is audited and its findings printed before the build fails, naming each
// failing package; the -dev package's libroctap.so link, which its sibling resolves, is no
// link-outside-tree note; and the add-on runs in both of debhelper's forms, `dh --with
// rocm-audit` and `Build-Depends: dh-sequence-rocm-audit` (no --with).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/cli/debian_source_fixture.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(HooksDebhelper, AuditsEveryPackageThenFailsNamingEach) {
  TempDir t;
  const std::string src = t / "roctap-1.0";
  RoctapSource s;
  s.dh_options = " --with rocm-audit";
  s.undefined_symbol = true;
  s.config_names_missing_file = true;
  WriteRoctapSource(src, s);
  std::string out;
  EXPECT_NE(RunCommand(BuildPackageCommand(src), &out), 0) << out;
  // libroctap1 fails first; the others are audited all the same.
  const size_t lib = out.find("dh_rocm_audit: auditing package libroctap1 ");
  const size_t dev = out.find("dh_rocm_audit: auditing package libroctap-dev ");
  ASSERT_NE(lib, std::string::npos) << out;
  ASSERT_NE(dev, std::string::npos) << out;
  EXPECT_LT(out.find("undefined symbol roc_missing"), dev) << out;
  EXPECT_GT(out.find("[cmake-missing-file]"), dev) << out;
  EXPECT_THAT(out, HasSubstr("dh_rocm_audit: auditing package roctap-tools ")) << out;
  EXPECT_THAT(out, HasSubstr("dh_rocm_audit: warning: package libroctap1 has findings that fail the build"))
      << out;
  EXPECT_THAT(out, HasSubstr("dh_rocm_audit: error: packages libroctap1, ")) << out;
  EXPECT_THAT(out, HasSubstr("libroctap-dev have findings that fail the build (listed above)")) << out;
  EXPECT_EQ(RunCommand("test -e " + t / "libroctap1_1.0-1_amd64.deb"), 1);
}

TEST(HooksDebhelper, ALinkItsSiblingResolvesIsNoNote) {
  TempDir t;
  const std::string src = t / "roctap-1.0";
  RoctapSource s;
  s.dh_options = " --with rocm-audit";
  WriteRoctapSource(src, s);
  std::string out;
  EXPECT_EQ(RunCommand(BuildPackageCommand(src), &out), 0) << out;
  EXPECT_THAT(out, HasSubstr("dh_rocm_audit: auditing package libroctap-dev ")) << out;
  EXPECT_THAT(out, Not(HasSubstr("link-outside-tree"))) << out;
}

// debhelper reads Build-Depends for dh-sequence-NAME and adds sequence NAME (dh(1)).
TEST(HooksDebhelper, BuildDependsOnTheDhSequenceRunsTheAddOn) {
  TempDir t;
  const std::string src = t / "roctap-1.0";
  RoctapSource s;
  s.build_depends = ", dh-sequence-rocm-audit";
  s.undefined_symbol = true;
  WriteRoctapSource(src, s);
  std::string out;
  EXPECT_NE(RunCommand(BuildPackageCommand(src), &out), 0) << out;
  EXPECT_THAT(out, HasSubstr("dh_rocm_audit: auditing package libroctap1 ")) << out;
  EXPECT_THAT(out, HasSubstr("undefined symbol roc_missing")) << out;
  s.undefined_symbol = false;
  WriteRoctapSource(src, s);
  EXPECT_EQ(RunCommand(BuildPackageCommand(src), &out), 0) << out;
  EXPECT_THAT(out, HasSubstr("dh_rocm_audit: auditing package libroctap1 ")) << out;
}

}  // namespace
}  // namespace rocm_audit::testing
