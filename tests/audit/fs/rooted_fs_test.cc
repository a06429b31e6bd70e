#include "audit/fs/rooted_fs.h"

#include <gtest/gtest.h>

#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

TEST(RootedFs, NormalizePath) {
  EXPECT_EQ(NormalizePath("/a/./b//c/../d/"), "/a/b/d");
  EXPECT_EQ(NormalizePath("/../.."), "/");
  EXPECT_EQ(NormalizePath("a/../../b"), "../b");
  EXPECT_EQ(DirName("/a/b/c"), "/a/b");
  EXPECT_EQ(DirName("/a"), "/");
  EXPECT_EQ(DirName("a"), ".");
  EXPECT_EQ(BaseName("/a/b/libc.so.6"), "libc.so.6");
}

TEST(RootedFs, AbsoluteSymlinkTargetsStayInsideTheRoot) {
  TempDir t;
  ASSERT_TRUE(
      BuildTree(t.path(),
                "mkdir -p usr/lib && echo x > usr/lib/libz.so.1.3 && ln -s usr/lib lib\n"
                "ln -s /usr/lib/libz.so.1.3 usr/lib/libz.so.1 && ln -s /lib/libz.so.1 usr/lib/libz.so"));
  RootedFs fs(t.path());
  EXPECT_EQ(fs.Resolve(t / "usr/lib/libz.so"), t / "usr/lib/libz.so.1.3");
  EXPECT_EQ(fs.Resolve(fs.HostPath("/lib/libz.so.1")), t / "usr/lib/libz.so.1.3");
  EXPECT_EQ(fs.DisplayPath(t / "usr/lib/libz.so"), "/usr/lib/libz.so");
}

TEST(RootedFs, DotDotNeverLeavesTheRoot) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), "mkdir -p etc && echo x > etc/f && ln -s ../../../../etc/f up"));
  RootedFs fs(t.path());
  EXPECT_EQ(fs.Resolve(t / "up"), t / "etc/f");
}

TEST(RootedFs, LoopsAndMissingTargetsAreNamed) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), "ln -s b a && ln -s a b && ln -s nowhere dangling"));
  RootedFs fs(t.path());
  std::string why;
  EXPECT_FALSE(fs.Resolve(t / "a", &why));
  EXPECT_EQ(why, "symlink loop");
  EXPECT_FALSE(fs.Resolve(t / "dangling", &why));
  EXPECT_EQ(why, "does not exist");
}

TEST(RootedFs, LayersAreSearchedTopFirstAtEveryComponent) {
  TempDir t;
  ASSERT_TRUE(
      BuildTree(t.path(),
                "mkdir -p top/usr/lib base/usr/lib base/etc/ld.so.conf.d top/etc/ld.so.conf.d\n"
                "echo top > top/usr/lib/libboth.so && echo base > base/usr/lib/libboth.so\n"
                "echo base > base/usr/lib/libbase.so.1\n"
                "ln -s /usr/lib/libbase.so.1 top/usr/lib/libbase.so\n"  // absolute link into the lower layer
                "echo a > base/etc/ld.so.conf.d/a.conf && echo b > top/etc/ld.so.conf.d/b.conf && echo a2 > "
                "top/etc/ld.so.conf.d/a.conf"));
  RootedFs fs(std::vector<std::string>{t / "top", t / "base"});
  EXPECT_EQ(fs.Resolve(fs.HostPath("/usr/lib/libboth.so")), t / "top/usr/lib/libboth.so");
  EXPECT_EQ(fs.Resolve(fs.HostPath("/usr/lib/libbase.so")), t / "base/usr/lib/libbase.so.1");
  EXPECT_EQ(fs.DisplayPath(t / "base/usr/lib/libbase.so.1"), "/usr/lib/libbase.so.1");
  EXPECT_TRUE(fs.IsDirectory(fs.HostPath("/etc/ld.so.conf.d")));
  EXPECT_EQ(fs.Glob("/etc/ld.so.conf.d/*.conf"),
            (std::vector<std::string>{t / "top/etc/ld.so.conf.d/a.conf", t / "top/etc/ld.so.conf.d/b.conf"}));
  EXPECT_EQ(fs.layers(), (std::vector<std::string>{t / "top", t / "base"}));
}

TEST(RootedFs, WithoutARootPathsAreTheHostsOwn) {
  RootedFs fs;
  EXPECT_EQ(fs.HostPath("/usr/lib"), "/usr/lib");
  EXPECT_TRUE(fs.IsDirectory("/usr"));
}

}  // namespace
}  // namespace rocm_audit::testing
