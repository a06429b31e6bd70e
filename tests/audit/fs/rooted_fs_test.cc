#include "audit/fs/rooted_fs.h"

#include <gtest/gtest.h>

#include <filesystem>

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

// A root given relative to the working directory: what the walk meets below it (relative
// paths too) is shown as the installed system sees it, as absolute paths are.
TEST(RootedFs, APathBelowARootGivenRelativeIsShownInTheRoot) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), "mkdir -p usr/lib && echo x > usr/lib/libz.so.1"));
  const std::string relative = std::filesystem::relative(t.path()).string();
  RootedFs fs(relative);
  EXPECT_EQ(fs.DisplayPath(relative + "/usr/lib/libz.so.1"), "/usr/lib/libz.so.1");
  EXPECT_EQ(fs.DisplayPath(t / "usr/lib/libz.so.1"), "/usr/lib/libz.so.1");
  EXPECT_EQ(fs.DisplayPath("elsewhere/libz.so.1"), "elsewhere/libz.so.1");  // outside: as given
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

// Two links to "." double a glob's matches at every "/*": 2^40 paths for 40 levels, which
// glob(3) would list until memory ran out. The entries read are bounded; `cut` says so.
TEST(RootedFs, AGlobThatReadsTooManyEntriesIsCut) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), "mkdir -p d && ln -s . d/a && ln -s . d/b && echo x > d/f"));
  RootedFs fs(t.path());
  bool cut = true;
  EXPECT_EQ(fs.Glob("/d/*", &cut).size(), 3u);
  EXPECT_FALSE(cut);
  std::string deep = "/d";
  for (int i = 0; i < 40; ++i) deep += "/*";
  std::vector<std::string> found = fs.Glob(deep, &cut);
  EXPECT_TRUE(cut);
  EXPECT_LE(found.size(), kMaxGlobEntries);
}

// The walk resolves a directory once and each entry of it by one component: for every
// entry of every directory of every layer, that must be Resolve() of its whole path, with
// the same reason when it fails. Symlinks relative, absolute, to directories, chained,
// looping, dangling, climbing with "..", and a higher layer's link over a lower directory.
TEST(RootedFs, ResolvingEntryByEntryIsResolvingTheWholePath) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
                        "mkdir -p top/usr/lib/sub base/usr/lib/sub base/opt/x/lib top/usr/share base/etc\n"
                        "echo t > top/usr/lib/libboth.so && echo b > base/usr/lib/libboth.so\n"
                        "echo b > base/usr/lib/sub/libdeep.so.1 && echo b > base/opt/x/lib/libx.so.1\n"
                        "ln -s sub/libdeep.so.1 base/usr/lib/libdeep.so\n"
                        "ln -s /opt/x/lib top/usr/lib/x\n"
                        "ln -s ../../opt/x/lib/libx.so.1 top/usr/lib/libx.so\n"
                        "ln -s libx.so top/usr/lib/libx2.so && ln -s x/libx.so.1 base/usr/lib/libx3.so\n"
                        "ln -s loop2 base/usr/lib/loop1 && ln -s loop1 base/usr/lib/loop2\n"
                        "ln -s nowhere top/usr/lib/dangling && ln -s /usr/lib base/etc/lib\n"
                        "ln -s ../../../../../usr/lib/libboth.so top/usr/share/up\n"
                        "mkdir -p top/opt && ln -s /usr/share top/opt/x"));
  std::vector<std::vector<std::string>> setups = {{t / "top", t / "base"}, {t / "base"}, {}};
  size_t compared = 0;
  for (const auto& layers : setups) {
    RootedFs fs(layers);
    // (path as walked, where its entries are listed): a link to a directory is listed
    // where the layers resolve it, and its entries resolved through the link.
    std::vector<std::pair<std::string, std::string>> dirs;
    for (const std::string& l : layers.empty() ? std::vector<std::string>{t / "base"} : layers)
      dirs.push_back({l, l});
    for (size_t d = 0; d < dirs.size() && d < 64; ++d) {
      const auto [walked, listed] = dirs[d];
      std::string why_dir;
      auto dir = fs.ResolveFully(walked, &why_dir);
      ASSERT_TRUE(dir) << walked << ": " << why_dir;
      for (const auto& e : std::filesystem::directory_iterator(listed)) {
        std::string name = e.path().filename().string(), path = walked + "/" + name;
        std::string why_whole, why_entry, why_child;
        auto whole = fs.Resolve(path, &why_whole);
        auto entry = fs.ResolveEntry(*dir, name, &why_entry);
        auto child = fs.ResolveChild(*dir, name, &why_child);
        ASSERT_EQ(whole.has_value(), entry.has_value()) << path;
        ASSERT_EQ(whole.has_value(), child.has_value()) << path;
        ++compared;
        if (!whole) {
          EXPECT_EQ(why_whole, why_entry) << path;
          EXPECT_EQ(why_whole, why_child) << path;
          continue;
        }
        EXPECT_EQ(*whole, entry->host) << path;
        EXPECT_EQ(*whole, child->host) << path;
        if (std::filesystem::is_directory(*whole) && IsUnderDirectory(*whole, t.path()))
          dirs.push_back({path, *whole});
      }
    }
  }
  EXPECT_GT(compared, 40u);
}

// The kernel follows at most 40 links in one path resolution (MAXSYMLINKS), those on the
// way to the directory included: ResolveChild counts them, as Resolve() of the whole path.
TEST(RootedFs, ResolveChildCountsTheLinksToItsDirectory) {
  TempDir t;
  std::string script =
      "mkdir -p real && echo x > real/file && ln -s file real/l0 && ln -s l0 real/l1\n"
      "ln -s real d0\n";
  for (int i = 1; i < 39; ++i) script += "ln -s d" + std::to_string(i - 1) + " d" + std::to_string(i) + "\n";
  ASSERT_TRUE(BuildTree(t.path(), script));
  RootedFs fs;
  auto dir = fs.ResolveFully(t / "d38");  // 39 links
  ASSERT_TRUE(dir);
  EXPECT_EQ(dir->links, 39);
  std::string why_whole, why_child;
  EXPECT_TRUE(fs.Resolve(t / "d38/file"));
  EXPECT_TRUE(fs.ResolveChild(*dir, "file"));
  EXPECT_FALSE(fs.Resolve(t / "d38/l1", &why_whole));  // 41 links
  EXPECT_FALSE(fs.ResolveChild(*dir, "l1", &why_child));
  EXPECT_EQ(why_whole, kTooManySymlinks);  // a chain past the limit, not a cycle
  EXPECT_EQ(why_child, why_whole);
  EXPECT_TRUE(fs.ResolveEntry(*dir, "l1")) << "the walk's entries count their own links only";
}

TEST(RootedFs, WithoutARootPathsAreTheHostsOwn) {
  RootedFs fs;
  EXPECT_EQ(fs.HostPath("/usr/lib"), "/usr/lib");
  EXPECT_TRUE(fs.IsDirectory("/usr"));
}

// A layer hides what installing removes from it: the hidden path is gone from that layer
// (resolution, globbing), a layer above still shows its own copy, and directories stay.
TEST(RootedFs, AHiddenPathIsGoneFromItsLayerOnly) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
                        "mkdir -p top/usr/lib base/usr/lib\n"
                        "echo new > top/usr/lib/libshipped.so.1 && echo old > base/usr/lib/libshipped.so.1\n"
                        "echo old > base/usr/lib/libdropped.a && echo other > base/usr/lib/libother.so.1\n"
                        "ln -s libdropped.a base/usr/lib/liblink.a"));
  RootedFs fs(std::vector<std::string>{t / "top", t / "base"});
  fs.Hide(1, {"/usr/lib/libshipped.so.1", "/usr/lib/libdropped.a"});
  EXPECT_EQ(fs.HiddenCount(1), 2u);
  EXPECT_EQ(fs.Resolve(fs.HostPath("/usr/lib/libshipped.so.1")), t / "top/usr/lib/libshipped.so.1");
  std::string why;
  EXPECT_FALSE(fs.Resolve(fs.HostPath("/usr/lib/libdropped.a"), &why));
  EXPECT_EQ(why, "does not exist");
  EXPECT_FALSE(fs.Resolve(fs.HostPath("/usr/lib/liblink.a")));  // a link to a hidden file dangles
  EXPECT_EQ(fs.Resolve(fs.HostPath("/usr/lib/libother.so.1")), t / "base/usr/lib/libother.so.1");
  EXPECT_EQ(fs.Glob("/usr/lib/lib*"),
            (std::vector<std::string>{t / "base/usr/lib/liblink.a", t / "base/usr/lib/libother.so.1",
                                      t / "top/usr/lib/libshipped.so.1"}));
  // The top layer itself hides nothing it ships.
  fs.Hide(0, {"/usr/lib/libother.so.1"});
  EXPECT_EQ(fs.Resolve(fs.HostPath("/usr/lib/libother.so.1")), t / "base/usr/lib/libother.so.1");
}

// Issue 52: a directory is looked at once per run. Every input of a run (328 files of one
// tree given as PATHs) is resolved from "/", and each walked component of each was an
// lstat(2): the directories above the tree were looked at once per file (1,391 times each
// for sid's 328 files). Now each directory costs one lookup for the run and each file its own.
TEST(RootedFs, EachDirectoryIsLookedAtOncePerRun) {
  TempDir t;
  constexpr int kFiles = 200;
  ASSERT_TRUE(BuildTree(t.path(), "mkdir -p a/b/c/d && for i in $(seq " + std::to_string(kFiles) +
                                      "); do echo x > a/b/c/d/lib$i.so; done\n"
                                      "ln -s d a/b/c/link"));
  const size_t above = PathComponents(t.path()).size();  // the directories of the TempDir's path
  RootedFs host;
  for (int i = 1; i <= kFiles; ++i) {
    const std::string file = t / ("a/b/c/d/lib" + std::to_string(i) + ".so");
    ASSERT_EQ(host.Resolve(file), file);
  }
  // One lookup for each directory, one for each file: not (directories + 1) per file.
  EXPECT_LE(host.Lookups(), above + 4 + kFiles);
  // Below a root the layer's own path is never looked at; a link to a directory is read once.
  RootedFs rooted(t.path());
  for (int i = 1; i <= kFiles; ++i)
    ASSERT_EQ(rooted.Resolve(rooted.HostPath("/a/b/c/link/lib" + std::to_string(i) + ".so")),
              t / ("a/b/c/d/lib" + std::to_string(i) + ".so"));
  EXPECT_LE(rooted.Lookups(), 6 + kFiles);  // a, b, c, the link (lstat, readlink), d; each file
}

}  // namespace
}  // namespace rocm_audit::testing
