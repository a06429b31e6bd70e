#include "audit/fs/walk.h"

#include <gtest/gtest.h>

#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

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
  EXPECT_NE(w.problems[0].message.find("libamdhip64.so.6"), std::string::npos);
}

TEST(Walk, CountsEveryFileByKind) {
  TempDir t;
  ASSERT_TRUE(BuildTree(
      t.path(),
      "mkdir -p include && echo '#pragma once' > include/hip.h && echo 'x' > README && mkfifo fifo"));
  WalkResult w = WalkInputs({t.path()}, RootedFs(t.path()));
  EXPECT_EQ(w.counts["other"], 2u);
  EXPECT_EQ(w.counts["special"], 1u);  // the FIFO is never opened
}

}  // namespace
}  // namespace rocm_audit::testing
