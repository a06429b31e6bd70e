// Issue 47: symbolic link chains past the kernel's 40-link limit, resolved with shared work
// (audit/fs/link_memo.h). A directory of N links, each naming the next, cost up to 4,096
// links followed per link to tell a cycle from the limit (16 s for 3,000); each link's
// outcome is now kept once per run, and the verdicts are exact: a chain longer than that
// bound is too many links, not a loop.
#include <unistd.h>

#include <gtest/gtest.h>

#include <ctime>
#include <filesystem>
#include <fstream>

#include "audit/fs/rooted_fs.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

std::string LinkName(int i) {
  char name[16];
  snprintf(name, sizeof name, "l%05d", i);
  return name;
}

// `count` links in `dir`, each naming the next; the last names `end`.
void MakeChain(const std::string& dir, int count, const std::string& end) {
  std::filesystem::create_directories(dir);
  for (int i = 0; i < count; ++i)
    std::filesystem::create_symlink(i + 1 < count ? LinkName(i + 1) : end, dir + "/" + LinkName(i));
}

std::string WhyNot(const RootedFs& fs, const std::string& path) {
  std::string why;
  return fs.Resolve(path, &why) ? "resolves" : why;
}

TEST(SymlinkChain, AChainLongerThanAnyBoundIsTooManyLinksNotALoop) {
  TempDir t;
  std::ofstream(t / "file") << "x";
  MakeChain(t / "chain", 5000, "../file");
  RootedFs fs;
  // 5,000 links end at a file: the kernel stops at the 41st (ELOOP), but they form no cycle.
  EXPECT_EQ(WhyNot(fs, t / ("chain/" + LinkName(0))), kTooManySymlinks);
  EXPECT_EQ(WhyNot(fs, t / ("chain/" + LinkName(4959))), kTooManySymlinks);
  EXPECT_EQ(WhyNot(fs, t / ("chain/" + LinkName(4960))), "resolves");  // 40 links
}

TEST(SymlinkChain, AChainEndingInACycleLoopsFromEveryLink) {
  TempDir t;
  MakeChain(t / "chain", 3000, LinkName(2998));
  RootedFs fs;
  for (int i : {0, 1500, 2998, 2999}) EXPECT_EQ(WhyNot(fs, t / ("chain/" + LinkName(i))), kSymlinkCycle) << i;
  // A link that names itself below itself never ends either, without revisiting a state.
  std::filesystem::create_symlink("grows/x", t / "grows");
  EXPECT_EQ(WhyNot(fs, t / "grows"), kSymlinkCycle);
}

// The walk resolves every entry of a directory: 3,000 chained links cost about 3,000 links
// followed in all (they took 8 s of CPU, 9 million system calls, before).
TEST(SymlinkChain, ADirectoryOfChainedLinksResolvesInLinearTime) {
  TempDir t;
  std::ofstream(t / "file") << "x";
  MakeChain(t / "chain", 3000, "../file");
  RootedFs fs;
  auto dir = fs.ResolveFully(t / "chain");
  ASSERT_TRUE(dir);
  const std::clock_t start = std::clock();  // CPU time: a busy machine does not count
  int too_many = 0, resolved = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string why;
    if (auto r = fs.ResolveEntry(*dir, LinkName(i), &why)) {
      EXPECT_EQ(r->host, t / "file");
      EXPECT_EQ(r->links, 3000 - i);
      ++resolved;
    } else {
      EXPECT_EQ(why, kTooManySymlinks) << i;
      ++too_many;
    }
  }
  const double seconds = double(std::clock() - start) / CLOCKS_PER_SEC;
  EXPECT_EQ(too_many, 2960);
  EXPECT_EQ(resolved, 40);
  EXPECT_LT(seconds, 2.0 * kSanitizerSlowdown);
}

// A kept outcome carries its count of links: what it adds to the links already followed
// (the directory's, other links on the way) decides the limit exactly, in any order.
TEST(SymlinkChain, KeptOutcomesCountTheirLinks) {
  TempDir t;
  std::ofstream(t / "file") << "x";
  MakeChain(t / "chain", 45, "../file");
  std::string script = "ln -s chain d0\n";
  for (int i = 1; i < 39; ++i) script += "ln -s d" + std::to_string(i - 1) + " d" + std::to_string(i) + "\n";
  ASSERT_TRUE(BuildTree(t.path(), script));
  RootedFs fs;
  EXPECT_EQ(WhyNot(fs, t / ("chain/" + LinkName(20))), "resolves");  // 25 links, kept
  EXPECT_EQ(WhyNot(fs, t / ("chain/" + LinkName(5))), "resolves");   // 40
  EXPECT_EQ(WhyNot(fs, t / ("chain/" + LinkName(4))), kTooManySymlinks);
  auto dir = fs.ResolveFully(t / "d38");  // 39 links to the directory
  ASSERT_TRUE(dir);
  EXPECT_TRUE(fs.ResolveChild(*dir, LinkName(44)));  // 40
  std::string why;
  EXPECT_FALSE(fs.ResolveChild(*dir, LinkName(43), &why));  // 41
  EXPECT_EQ(why, kTooManySymlinks);
  EXPECT_EQ(WhyNot(fs, t / ("d38/" + LinkName(43))), kTooManySymlinks);
  // A missing target after 41 links: the kernel stops at the limit before it meets it.
  std::filesystem::create_symlink("nowhere", t / "chain/dangling");
  std::filesystem::create_symlink("dangling", t / "d38/to-dangling");
  EXPECT_EQ(WhyNot(fs, t / "chain/to-dangling"), kNoSuchPath);  // 2 links
  EXPECT_EQ(WhyNot(fs, t / "d38/to-dangling"), kTooManySymlinks);
}

// What a layer hides changes what its links resolve to: nothing kept before is reused.
TEST(SymlinkChain, HidingAPathForgetsTheOutcomesKeptBefore) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
                        "mkdir -p top/usr/lib base/usr/lib && echo old > base/usr/lib/libold.so.1\n"
                        "ln -s /usr/lib/libold.so.1 top/usr/lib/libold.so"));
  RootedFs fs(std::vector<std::string>{t / "top", t / "base"});
  EXPECT_EQ(fs.Resolve(fs.HostPath("/usr/lib/libold.so")), t / "base/usr/lib/libold.so.1");
  fs.Hide(1, {"/usr/lib/libold.so.1"});
  EXPECT_EQ(WhyNot(fs, fs.HostPath("/usr/lib/libold.so")), kNoSuchPath);
}

// A link in the host's /proc names the reading process's state, which changes: never kept.
TEST(SymlinkChain, LinksInProcAreReadEveryTime) {
  TempDir a, b;
  const auto cwd = std::filesystem::current_path();
  RootedFs fs;
  ASSERT_EQ(chdir(a.path().c_str()), 0);
  auto first = fs.Resolve("/proc/self/cwd");
  ASSERT_EQ(chdir(b.path().c_str()), 0);
  auto second = fs.Resolve("/proc/self/cwd");
  std::filesystem::current_path(cwd);
  EXPECT_EQ(first, std::filesystem::canonical(a.path()).string());
  EXPECT_EQ(second, std::filesystem::canonical(b.path()).string());
}

}  // namespace
}  // namespace rocm_audit::testing
