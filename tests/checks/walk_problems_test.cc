// dangling-symlink, symlink-loop, link-outside-tree, special-file: the walk's problems, each at
// its rule's severity.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/audit_support.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;

TEST(WalkProblems, BrokenLinksAreWarningsWithTheGenericFix) {
  TempDir t;
  ASSERT_TRUE(
      BuildTree(t.path(), "mkdir -p lib && ln -s libgone.so.1 lib/libgone.so && ln -s loop lib/loop"));
  Report r = Audit({t / "lib"}, t.path());
  auto dangling = FindingsOf(r, "dangling-symlink", t / "lib/libgone.so");
  ASSERT_EQ(dangling.size(), 1u);
  EXPECT_EQ(dangling[0].severity, Severity::kWarning);
  EXPECT_THAT(dangling[0].message, HasSubstr("-> libgone.so.1"));
  EXPECT_THAT(dangling[0].hint, HasSubstr("ship the target"));
  EXPECT_EQ(FindingsOf(r, "symlink-loop", t / "lib/loop").size(), 1u);
}

TEST(WalkProblems, LinkOutOfTheTreeIsANoteNamingItsTarget) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), "mkdir -p pkg/lib && ln -s / pkg/lib/everything"));
  Report r = Audit({t / "pkg"}, "");
  auto f = FindingsOf(r, "link-outside-tree", t / "pkg/lib/everything");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kNote);
  EXPECT_THAT(f[0].message, HasSubstr("links to /, outside"));
  EXPECT_TRUE(r.files.empty());
}

// A FIFO in an install tree: never opened, and an error (Debian Policy 10.6, lintian's
// special-file), so the hooks fail on it.
TEST(WalkProblems, SpecialFileIsAnError) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), "mkdir -p lib && mkfifo lib/libfifo.so.1"));
  Report r = Audit({t / "lib"}, t.path());
  auto f = FindingsOf(r, "special-file", t / "lib/libfifo.so.1");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kError);
  EXPECT_EQ(f[0].message, "a FIFO: not opened");
}

}  // namespace
}  // namespace rocm_audit::testing
