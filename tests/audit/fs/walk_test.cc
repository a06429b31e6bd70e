#include "audit/fs/walk.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

TEST(Walk, EachFileOnceUnderItsInstalledPath) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
                        "mklib usr/lib/libfoo.so.1.2 libfoo.so.1 'int foo(void) { return 0; }' -nostdlib\n"
                        "ln -s libfoo.so.1.2 usr/lib/libfoo.so.1 && ln -s libfoo.so.1 usr/lib/libfoo.so\n"
                        "ln -s usr/lib lib && ln usr/lib/libfoo.so.1.2 usr/lib/hardlink.so"));
  WalkResult w = WalkInputs({t.path()}, RootedFs(t.path()));
  ASSERT_EQ(w.files.size(), 1u);
  // "hardlink.so" sorts first, but either real name is fine; never a symlink path.
  EXPECT_TRUE(w.files[0].path == t / "usr/lib/hardlink.so" || w.files[0].path == t / "usr/lib/libfoo.so.1.2")
      << w.files[0].path;
  EXPECT_EQ(w.files[0].kind, FileKind::kElf);
  EXPECT_TRUE(w.problems.empty());
}

// Files given as PATHs are resolved through their directory, once for all of them: each
// still lands on its own file, through a symlinked directory of the root as the kernel
// resolves it, and a PATH that is a directory still opens the tree.
TEST(Walk, FilePathsInOneDirectoryEachResolveToTheirOwnFile) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
                        "mklib usr/lib/libfoo.so.1 libfoo.so.1 'int foo(void) { return 0; }' -nostdlib\n"
                        "mklib usr/lib/libbar.so.1 libbar.so.1 'int bar(void) { return 0; }' -nostdlib\n"
                        "mkdir -p opt && ln -s ../usr/lib opt/lib"));
  WalkResult w = WalkInputs({t / "opt/lib/libfoo.so.1", t / "opt/lib/libbar.so.1", t / "usr/lib/libfoo.so.1"},
                            RootedFs(t.path()));
  ASSERT_EQ(w.files.size(), 2u) << "libfoo.so.1 is one file, by either path";
  std::set<std::pair<std::string, std::string>> got;
  for (size_t i = 0; i < w.files.size(); ++i) got.insert({w.files[i].path, w.files[i].real_path});
  EXPECT_EQ(got, (std::set<std::pair<std::string, std::string>>{
                     {t / "opt/lib/libfoo.so.1", t / "usr/lib/libfoo.so.1"},
                     {t / "opt/lib/libbar.so.1", t / "usr/lib/libbar.so.1"}}));
  EXPECT_TRUE(w.problems.empty());
}

TEST(Walk, SymlinkedDirectoriesComeAfterRealOnes) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
                        "mklib usr/lib/libfoo.so.1 libfoo.so.1 'int foo(void) { return 0; }' -nostdlib && ln "
                        "-s usr/lib a-lib"));
  WalkResult w = WalkInputs({t.path()}, RootedFs(t.path()));
  ASSERT_EQ(w.files.size(), 1u);
  EXPECT_EQ(w.files[0].path, t / "usr/lib/libfoo.so.1");
}

TEST(Walk, DanglingSymlinkIsAProblemWithItsTarget) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), "mkdir -p lib && ln -s libamdhip64.so.6 lib/libamdhip64.so"));
  WalkResult w = WalkInputs({t.path()}, RootedFs(t.path()));
  ASSERT_EQ(w.problems.size(), 1u);
  EXPECT_EQ(w.problems[0].kind, WalkProblem::kDanglingSymlink);
  EXPECT_THAT(w.problems[0].message, HasSubstr("libamdhip64.so.6"));
}

// A link to "/" or to a parent would walk the whole machine, /proc included; a store path's
// links into other store paths would audit those packages as part of this one.
TEST(Walk, LinksOutOfTheTreeAreNotFollowed) {
  TempDir t;
  ASSERT_TRUE(
      BuildTree(t.path(),
                "mkdir -p pkg/lib other/lib\n"
                "mklib pkg/lib/libin.so libin.so 'int a(void) { return 0; }' -nostdlib\n"
                "mklib other/lib/libout.so libout.so 'int b(void) { return 0; }' -nostdlib\n"
                "ln -s / pkg/root && ln -s .. pkg/up && ln -s ../../other/lib pkg/lib/dep\n"
                "ln -s ../../other/lib/libout.so pkg/lib/libout.so && ln -s libin.so pkg/lib/libin.so.1"));
  WalkResult w = WalkInputs({t / "pkg"}, RootedFs());
  ASSERT_EQ(w.files.size(), 1u);
  EXPECT_EQ(w.files[0].path, t / "pkg/lib/libin.so");
  std::set<std::string> outside;
  for (const WalkProblem& p : w.problems)
    if (p.kind == WalkProblem::kOutsideTree) outside.insert(p.path);
  EXPECT_EQ(outside, (std::set<std::string>{t / "pkg/root", t / "pkg/up", t / "pkg/lib/dep",
                                            t / "pkg/lib/libout.so"}));
  // Named as inputs, the same links are followed: the user asked for them.
  WalkResult both = WalkInputs({t / "pkg", t / "pkg/lib/dep"}, RootedFs());
  std::vector<std::string> paths;
  for (const WalkedFile& f : both.files) paths.push_back(f.path);
  // dep/libout.so is the file pkg/lib/libout.so links to, audited once under the name met first.
  EXPECT_THAT(paths, UnorderedElementsAre(t / "pkg/lib/libin.so", t / "pkg/lib/libout.so"));
}

TEST(Walk, AbsoluteLinksInsideARootStayInTheTree) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
                        "mkdir -p usr/lib/x\n"
                        "mklib usr/lib/x/libin.so.1 libin.so.1 'int a(void) { return 0; }' -nostdlib\n"
                        "ln -s /usr/lib/x/libin.so.1 usr/lib/x/libin.so && ln -s /usr/lib lib"));
  WalkResult w = WalkInputs({t.path()}, RootedFs(t.path()));
  ASSERT_EQ(w.files.size(), 1u);
  EXPECT_EQ(w.files[0].path, t / "usr/lib/x/libin.so.1");
  for (const WalkProblem& p : w.problems) EXPECT_NE(p.kind, WalkProblem::kOutsideTree) << p.path;
}

TEST(Walk, CountsEveryFileByKind) {
  TempDir t;
  ASSERT_TRUE(BuildTree(
      t.path(),
      "mkdir -p include && echo '#pragma once' > include/hip.h && echo 'x' > README && mkfifo fifo"));
  WalkResult w = WalkInputs({t.path()}, RootedFs(t.path()));
  EXPECT_EQ(w.counts["other"], 2u);
  EXPECT_EQ(w.counts["special"], 1u);  // the FIFO is never opened, but said
  ASSERT_EQ(w.problems.size(), 1u);
  EXPECT_EQ(w.problems[0].kind, WalkProblem::kSpecialFile);
  EXPECT_EQ(w.problems[0].message, "a FIFO: not opened");
}

}  // namespace
}  // namespace rocm_audit::testing
