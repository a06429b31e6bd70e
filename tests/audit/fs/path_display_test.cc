// One path convention (design.md §5): a report names files below the PATH argument that
// reached them, root-relative under --root, as the host names them outside every PATH and
// root; the same from every working directory and however the PATH was spelled.
#include "audit/fs/path_display.h"

#include <filesystem>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(PathDisplay, MapsTheLongestAncestorAndJoinsOnce) {
  PathDisplay d;
  d.Map("/t/pkgroot", "/");
  d.Map("/t/pkgroot/usr/lib/libx.so.1", "x.deb:/usr/lib/libx.so.1");
  d.Map("/tree", "");
  EXPECT_EQ(d.Show("/t/pkgroot/usr/lib/libx.so.1"), "x.deb:/usr/lib/libx.so.1");
  EXPECT_EQ(d.Show("/t/pkgroot/usr/lib/liby.so"), "/usr/lib/liby.so");
  EXPECT_EQ(d.Show("/tree/lib/a.so"), "lib/a.so");
  EXPECT_EQ(d.Show("/tree"), ".");
  EXPECT_EQ(d.Show("/tree//lib/./a.so"), "lib/a.so");
  EXPECT_EQ(d.Show("/treehouse/a.so"), "/treehouse/a.so");  // components, not characters
  EXPECT_EQ(d.Show("/usr/lib/libc.so.6"), "/usr/lib/libc.so.6");
  d.SetAbsolute(true);
  EXPECT_EQ(d.Show("/tree/lib/a.so"), "/tree/lib/a.so");
}

// "bin/../lib/x" is what the loader opens: through bin as it is. It is shown folded to
// "lib/x" only where both name the same file; through a symlinked bin it is another file.
TEST(PathDisplay, DotDotIsFoldedOnlyWhereBothPathsNameTheSameFile) {
  TempDir t;
  std::filesystem::create_directories(t / "usr/bin");
  std::filesystem::create_directories(t / "usr/lib");
  std::filesystem::create_directories(t / "lib");
  std::filesystem::create_directories(t / "opt/bin");
  std::filesystem::create_directories(t / "opt/lib");
  std::filesystem::create_symlink("usr/bin", t / "bin");
  WriteAll(t / "usr/lib/x", "the loader's");
  WriteAll(t / "lib/x", "another file");
  WriteAll(t / "opt/lib/y", "one file");
  PathDisplay d;
  d.Map(t.path(), "");
  EXPECT_EQ(d.Show(t / "bin/../lib/x"), "bin/../lib/x");
  EXPECT_EQ(d.Show(t / "opt/bin/../lib/y"), "opt/lib/y");
  EXPECT_EQ(d.ShowInText(t / "bin/../lib/x"), "bin/../lib/x");
  EXPECT_EQ(d.ShowInText(t / "opt/bin/../lib/y"), "opt/lib/y");
}

// The audited directory itself is "." as a path (a finding's file, JSON), but a sentence that
// names it says which directory it is: the PATH as the person gave it.
TEST(PathDisplay, TheAuditedDirectoryItselfIsNamedAsGivenInSentences) {
  PathDisplay d;
  d.Map("/work/tree", "");
  d.NameInText("/work/tree", "build/tree/");
  EXPECT_EQ(d.Show("/work/tree"), ".");
  EXPECT_EQ(d.ShowInText("/work/tree"), "build/tree");
  EXPECT_EQ(d.ShowInText("/work/tree/lib"), "lib");
  d.SetAbsolute(true);
  EXPECT_EQ(d.ShowInText("/work/tree"), "/work/tree");

  TempDir t;
  ASSERT_EQ(RunCommand("mkdir -p " + t / "tree/lib"), 0);
  PathDisplay made = MakePathDisplay({t / "tree/"}, {}, false);
  EXPECT_EQ(made.Show(t / "tree"), ".");
  EXPECT_EQ(made.ShowInText(t / "tree"), t / "tree");
  EXPECT_EQ(made.ShowInText(t / "tree/lib"), "lib");
}

// A PATH given relative ("links"): the paths the walk names below it are shown below it.
TEST(PathDisplay, APathGivenRelativeShowsThePathsBelowIt) {
  PathDisplay d;
  d.Map("links", "");
  EXPECT_EQ(d.ShowInText("links/lib/libx.so"), "lib/libx.so");
}

TEST(PathDisplay, ReportsAreTheSameFromEveryDirectoryAndSpelling) {
  const std::string tree = ROCM_AUDIT_DEMO_TREE, parent = tree.substr(0, tree.rfind('/'));
  const std::string bin = std::string(ROCM_AUDIT_BINARY) + " --no-progress --fail-on none --format json ";
  std::string from_parent, absolute, with_slash;
  ASSERT_EQ(RunCommand("cd " + parent + " && " + bin + "demo-tree", &from_parent), 0);
  ASSERT_EQ(RunCommand("cd / && " + bin + tree, &absolute), 0);
  ASSERT_EQ(RunCommand("cd " + tree + "/lib && " + bin + "../../demo-tree/", &with_slash), 0);
  auto paths = [](const std::string& out) {
    nlohmann::json j = nlohmann::json::parse(out);
    std::vector<std::string> all;
    for (const auto& f : j["findings"])
      all.push_back(f["file"].get<std::string>() + " " + f["message"].dump());
    for (const auto& f : j["files"])
      all.push_back(f["path"].get<std::string>() + " " + f.value("closure", nlohmann::json()).dump());
    return all;
  };
  EXPECT_EQ(paths(from_parent), paths(absolute));
  EXPECT_EQ(paths(from_parent), paths(with_slash));
  for (const std::string& p : paths(absolute)) EXPECT_THAT(p, Not(HasSubstr(tree)));
  EXPECT_THAT(from_parent, HasSubstr("\"file\": \"lib/libMIOpen.so.1\""));
}

TEST(PathDisplay, RootRelativeUnderRootAndAbsoluteOnlyWhenAsked) {
  const std::string tree = ROCM_AUDIT_DEMO_TREE;
  const std::string bin = std::string(ROCM_AUDIT_BINARY) + " --no-progress --fail-on none --format json ";
  std::string rooted, asked, several;
  ASSERT_EQ(RunCommand(bin + "--root " + tree + " " + tree + "/lib", &rooted), 0);
  EXPECT_THAT(rooted, HasSubstr("\"file\": \"/lib/libMIOpen.so.1\""));
  nlohmann::json without_inputs = nlohmann::json::parse(rooted);
  without_inputs.erase("inputs");  // the invocation, as given
  EXPECT_THAT(without_inputs.dump(), Not(HasSubstr(tree + "/")));
  ASSERT_EQ(RunCommand(bin + "--absolute-paths " + tree, &asked), 0);
  EXPECT_THAT(asked, HasSubstr("\"file\": \"" + tree + "/lib/libMIOpen.so.1\""));
  ASSERT_EQ(RunCommand(bin + tree + "/lib " + tree + "/bin", &several), 0);
  EXPECT_THAT(several, HasSubstr("\"file\": \"lib/libMIOpen.so.1\""));
  EXPECT_THAT(several, HasSubstr("\"file\": \"bin/rocm-demo\""));
  std::string one;
  ASSERT_EQ(RunCommand(bin + tree + "/lib/libMIOpen.so.1", &one), 0);
  EXPECT_THAT(one, HasSubstr("\"file\": \"libMIOpen.so.1\""));
}

// --absolute-paths makes paths of this machine absolute, and only those: a relative value
// that names no PATH given (CMake's own module "FindThreads.cmake of CMake", a config's
// relative include directory) is not prefixed with the working directory.
TEST(PathDisplay, AbsolutePathsLeaveValuesThatAreNotPathsAlone) {
  PathDisplay d;
  d.Map("build/tree", "");
  d.SetAbsolute(true);
  const std::string cwd = std::filesystem::current_path().string();
  EXPECT_EQ(d.Show("build/tree/lib/libx.so"), cwd + "/build/tree/lib/libx.so");
  EXPECT_EQ(d.Show("/opt/rocm/lib/libx.so"), "/opt/rocm/lib/libx.so");
  EXPECT_EQ(d.Show("FindThreads.cmake of CMake"), "FindThreads.cmake of CMake");
  EXPECT_EQ(d.Show("include"), "include");
}

}  // namespace
}  // namespace rocm_audit::testing
