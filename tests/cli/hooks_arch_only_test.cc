// dh_rocm_audit on builds that do not make every binary package of the source, built with the
// real dpkg-buildpackage -B (the architecture-dependent packages, as Debian's buildds build),
// -A (the Architecture: all ones) and -b with a package excluded (DH_OPTIONS=-N...). The
// source's libroctap-dev include()s macros of roctap-common (Architecture: all), whose own
// config names roctap-tools' program: each build lacks a package another needs a file of. A
// package not built is judged from its installed version when one is installed (into a root
// of the test's own, $DPKG_ROOT, so that the machine running the test is never changed), else
// named in a not-built-sibling note saying why it was not checked, never an error.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/cli/debian_source_fixture.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

RoctapSource WithCommon() {
  RoctapSource s;
  s.dh_options = " --with rocm-audit";
  s.common_package = true;
  return s;
}

// What a missing include() was told before: a fix that is wrong when the file is a package's
// the build does not make.
void ExpectNoMissingFileAdvice(const std::string& out) {
  EXPECT_THAT(out, Not(HasSubstr("[cmake-missing-file]"))) << out;
  EXPECT_THAT(out, Not(HasSubstr("OPTIONAL"))) << out;
  EXPECT_THAT(out, Not(HasSubstr("install roctap-macros.cmake with"))) << out;
}

TEST(HooksArchOnly, AnArchBuildNotesWhatTheArchAllPackageWouldShip) {
  TempDir t;
  const std::string src = t / "roctap-1.0";
  WriteRoctapSource(src, WithCommon());
  std::string out;
  EXPECT_EQ(RunCommand(BuildPackageCommand(src, "-B"), &out), 0) << out;
  EXPECT_THAT(out, HasSubstr("dh_rocm_audit: auditing package libroctap-dev ")) << out;
  EXPECT_THAT(out, Not(HasSubstr("dh_rocm_audit: auditing package roctap-common "))) << out;
  // Its staged tree (the rules file installs into it whatever the build) is no sibling.
  EXPECT_THAT(out, Not(HasSubstr("siblings libroctap1, roctap-tools, roctap-common"))) << out;
  EXPECT_THAT(out, HasSubstr("note[not-built-sibling]")) << out;
  EXPECT_THAT(out, HasSubstr("/usr/share/roctap/roctap-macros.cmake, which does not exist; not checked"))
      << out;
  EXPECT_THAT(out, HasSubstr("roctap-common (Architecture: all; this build makes only the "
                             "architecture-dependent packages (dpkg-buildpackage -B))"))
      << out;
  ExpectNoMissingFileAdvice(out);
  EXPECT_EQ(RunCommand("test -e " + t / "libroctap-dev_1.0-1_amd64.deb"), 0);
  EXPECT_EQ(RunCommand("test -e " + t / "roctap-common_1.0-1_all.deb"), 1);
}

TEST(HooksArchOnly, AnIndepBuildNotesWhatTheArchPackagesWouldShip) {
  TempDir t;
  const std::string src = t / "roctap-1.0";
  WriteRoctapSource(src, WithCommon());
  std::string out;
  EXPECT_EQ(RunCommand(BuildPackageCommand(src, "-A"), &out), 0) << out;
  EXPECT_THAT(out, HasSubstr("dh_rocm_audit: auditing package roctap-common ")) << out;
  EXPECT_THAT(out, Not(HasSubstr("dh_rocm_audit: auditing package libroctap1 "))) << out;
  EXPECT_THAT(out, HasSubstr("note[not-built-sibling]")) << out;
  EXPECT_THAT(out, HasSubstr("/usr/bin/roctap, which does not exist; not checked")) << out;
  EXPECT_THAT(out, HasSubstr("roctap-tools (Architecture: any; this build makes only the Architecture: all "
                             "packages (dpkg-buildpackage -A))"))
      << out;
  EXPECT_THAT(out, Not(HasSubstr("[cmake-missing-file]"))) << out;
  EXPECT_EQ(RunCommand("test -e " + t / "roctap-common_1.0-1_all.deb"), 0);
}

// -b builds every package: nothing is left unchecked, and the file the common package does
// not ship fails the build. With the package excluded, the same need is a note again.
TEST(HooksArchOnly, AFullBuildChecksWhatAnArchBuildCannot) {
  TempDir t;
  const std::string src = t / "roctap-1.0";
  RoctapSource s = WithCommon();
  WriteRoctapSource(src, s);
  std::string out;
  EXPECT_EQ(RunCommand(BuildPackageCommand(src, "-b"), &out), 0) << out;
  EXPECT_THAT(out, HasSubstr("dh_rocm_audit: auditing package roctap-common ")) << out;
  EXPECT_THAT(out, Not(HasSubstr("not-built-sibling"))) << out;
  s.common_lacks_macros = true;
  WriteRoctapSource(src, s);
  EXPECT_NE(RunCommand(BuildPackageCommand(src, "-b"), &out), 0) << out;
  EXPECT_THAT(out, HasSubstr("error[cmake-missing-file]")) << out;
  EXPECT_THAT(out, HasSubstr("package libroctap-dev has findings that fail the build")) << out;
  EXPECT_EQ(RunCommand(BuildPackageCommand(src, "-b", "DH_OPTIONS=-Nroctap-common"), &out), 0) << out;
  EXPECT_THAT(out, HasSubstr("roctap-common (Architecture: all; excluded from this build)")) << out;
  ExpectNoMissingFileAdvice(out);
}

// dpkg -i of `debs` (names in the test's directory) into the test's root.
void Install(const TempDir& t, const std::string& debs) {
  std::string out;
  EXPECT_EQ(RunCommand("cd " + t.path() + " && dpkg --root=" + t / "root" +
                           " --force-not-root --force-depends -i " + debs + " 2>&1",
                       &out),
            0)
      << out;
}

// An arch build judges the Architecture: all package from its installed version: an old one
// that lacks the macros fails the build, naming the file; the new one passes it.
TEST(HooksArchOnly, AnInstalledVersionStandsInForAPackageNotBuilt) {
  TempDir t;
  MakeRoot(t / "root");
  const std::string src = t / "roctap-1.0";
  const std::string root = "DPKG_ROOT=" + t / "root";
  RoctapSource old_source = WithCommon();
  old_source.version = "0.9-1";
  old_source.common_lacks_macros = true;
  WriteRoctapSource(src, old_source);
  std::string out;
  ASSERT_EQ(RunCommand(BuildPackageCommand(src, "-A", root), &out), 0) << out;
  Install(t, "roctap-common_0.9-1_all.deb");
  WriteRoctapSource(src, WithCommon());
  EXPECT_NE(RunCommand(BuildPackageCommand(src, "-B", root), &out), 0) << out;
  EXPECT_THAT(out, HasSubstr("dh_rocm_audit: not built by this run: roctap-common (Architecture: all; this "
                             "build makes only the architecture-dependent packages (dpkg-buildpackage -B)): "
                             "its installed version 0.9-1 stands in for it"))
      << out;
  EXPECT_THAT(out, HasSubstr("error[cmake-missing-file]")) << out;
  EXPECT_THAT(out, HasSubstr("/usr/share/roctap/roctap-macros.cmake, which does not exist")) << out;
  EXPECT_THAT(out, Not(HasSubstr("not-built-sibling"))) << out;
  ASSERT_EQ(RunCommand(BuildPackageCommand(src, "-A", root), &out), 0) << out;
  Install(t, "roctap-common_1.0-1_all.deb");
  EXPECT_EQ(RunCommand(BuildPackageCommand(src, "-B", root), &out), 0) << out;
  EXPECT_THAT(out, HasSubstr("its installed version 1.0-1 stands in for it")) << out;
  EXPECT_THAT(out, Not(HasSubstr("not-built-sibling"))) << out;
}

}  // namespace
}  // namespace rocm_audit::testing
