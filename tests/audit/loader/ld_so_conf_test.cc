#include "audit/loader/ld_so_conf.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

TEST(LdSoConf, IncludeGlobsCommentsHwcapAndDuplicates) {
  TempDir t;
  ASSERT_TRUE(
      BuildTree(t.path(),
                "mkdir -p etc/ld.so.conf.d\n"
                "printf '/first # trailing comment\\ninclude ld.so.conf.d/*.conf\\nhwcap 0 "
                "nosegneg\\n/last:/also,/third\\n' > etc/ld.so.conf\n"
                "printf '# libc default configuration\\n/usr/local/lib\\n' > etc/ld.so.conf.d/libc.conf\n"
                "printf '/opt/rocm/lib/\\n/first\\n/old=libc6\\n' > etc/ld.so.conf.d/rocm.conf\n"
                "echo '/not/a/conf' > etc/ld.so.conf.d/rocm.conf.disabled"));
  RootedFs fs(t.path());
  EXPECT_EQ(ReadLdSoConf(fs, "/etc/ld.so.conf"),
            (std::vector<std::string>{"/first", "/usr/local/lib", "/opt/rocm/lib", "/old", "/last", "/also",
                                      "/third"}));
}

TEST(LdSoConf, IncludeCycleAndMissingFileAreHarmless) {
  TempDir t;
  ASSERT_TRUE(
      BuildTree(t.path(), "mkdir -p etc && printf '/a\\ninclude /etc/ld.so.conf\\n' > etc/ld.so.conf"));
  RootedFs fs(t.path());
  EXPECT_EQ(ReadLdSoConf(fs, "/etc/ld.so.conf"), std::vector<std::string>{"/a"});
  EXPECT_TRUE(ReadLdSoConf(fs, "/etc/missing.conf").empty());
}

// ldconfig reads an included file where the include stands, and a directory keeps its first
// place: a file included twice adds nothing the second time, so it is read once.
TEST(LdSoConf, AFileIncludedTwiceIsReadOnceInLdconfigsOrder) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
                        "mkdir -p etc/d\n"
                        "printf 'include /etc/d/b.conf /etc/d/c.conf\\n/a\\n' > etc/ld.so.conf\n"
                        "printf '/b\\ninclude /etc/d/shared.conf\\n' > etc/d/b.conf\n"
                        "printf 'include /etc/d/shared.conf\\n/c\\n' > etc/d/c.conf\n"
                        "printf '/shared\\n' > etc/d/shared.conf"));
  RootedFs fs(t.path());
  EXPECT_EQ(ReadLdSoConf(fs, "/etc/ld.so.conf"), (std::vector<std::string>{"/b", "/shared", "/c", "/a"}));
}

// A file that includes itself on three lines: ldconfig's recursion reads it 3^depth times;
// read once, it ends at once.
TEST(LdSoConf, SelfIncludesEndAtOnce) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
                        "mkdir -p etc && printf 'include /etc/ld.so.conf\\ninclude /etc/ld.so.conf\\n"
                        "include /etc/ld.so.conf /etc/ld.so.conf\\n/a\\n' > etc/ld.so.conf"));
  RootedFs fs(t.path());
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(ReadLdSoConf(fs, "/etc/ld.so.conf"), std::vector<std::string>{"/a"});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

// A cycle through two files: each is read once, from where it is first included.
TEST(LdSoConf, ACycleReadsEachFileOnce) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
                        "mkdir -p etc\n"
                        "printf 'include /etc/g.conf\\n/f\\n' > etc/ld.so.conf\n"
                        "printf '/g\\ninclude /etc/ld.so.conf\\n/g2\\n' > etc/g.conf"));
  RootedFs fs(t.path());
  EXPECT_EQ(ReadLdSoConf(fs, "/etc/ld.so.conf"), (std::vector<std::string>{"/g", "/g2", "/f"}));
}

// ldconfig follows includes as deep as they go; so does this, without the thread's stack.
TEST(LdSoConf, AChainOfIncludesIsReadToItsEnd) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
                        "mkdir -p etc && for i in $(seq 0 199); do\n"
                        "  printf 'include /etc/%d.conf\\n/d%d\\n' $((i + 1)) $i > etc/$i.conf; done"));
  RootedFs fs(t.path());
  std::vector<std::string> dirs = ReadLdSoConf(fs, "/etc/0.conf");
  ASSERT_EQ(dirs.size(), 200u);
  EXPECT_EQ(dirs.front(), "/d199");
  EXPECT_EQ(dirs.back(), "/d0");
}

// A FIFO where a configuration file is expected is never opened for reading (ldconfig's
// fopen would wait for a writer): as the main file it names nothing, matched by an include
// glob it is passed over and the next file is read.
TEST(LdSoConf, FifosAreNotRead) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
                        "mkdir -p etc/ld.so.conf.d root/etc && mkfifo root/etc/ld.so.conf\n"
                        "echo 'include /etc/ld.so.conf.d/*.conf' > etc/ld.so.conf\n"
                        "mkfifo etc/ld.so.conf.d/a.conf && echo /b > etc/ld.so.conf.d/b.conf"));
  auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(ReadLdSoConf(RootedFs(t / "root"), "/etc/ld.so.conf").empty());
  EXPECT_EQ(ReadLdSoConf(RootedFs(t.path()), "/etc/ld.so.conf"), std::vector<std::string>{"/b"});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

// What /proc or /sys holds is the reading process's (the auditor's own here): an include
// of a file there, or of a link into the host's /proc, is never read, under a root or over
// the host alike.
TEST(LdSoConf, FilesInProcAreNeverRead) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
                        "mkdir -p etc/ld.so.conf.d proc/self sys && echo /from-proc > proc/self/x.conf\n"
                        "echo /from-sys > sys/x.conf && ln -s /proc/self/cwd/x.conf etc/ld.so.conf.d/c.conf\n"
                        "printf 'include /proc/self/x.conf\\ninclude /sys/x.conf\\n"
                        "include /etc/ld.so.conf.d/*.conf\\n/kept\\n' > etc/ld.so.conf\n"
                        "echo /from-cwd > x.conf"));
  EXPECT_EQ(ReadLdSoConf(RootedFs(t.path()), "/etc/ld.so.conf"), std::vector<std::string>{"/kept"});
  // Over the host, /proc/self/cwd is the auditor's working directory, which holds x.conf.
  const std::string cwd = std::filesystem::current_path();
  std::filesystem::current_path(t.path());
  auto host = ReadLdSoConf(RootedFs(), t / "etc/ld.so.conf.d/c.conf");
  std::filesystem::current_path(cwd);
  EXPECT_TRUE(host.empty()) << host.front();
}

}  // namespace
}  // namespace rocm_audit::testing
