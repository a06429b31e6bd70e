#include "audit/fs/walked_files.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rocm_audit::testing {
namespace {

TEST(WalkedFiles, AnEntryReadsBackAsItWasAdded) {
  WalkedFiles files;
  files.Add("/t/usr/lib/libfoo.so.1", "/t/usr/lib/libfoo.so.1", "/t", FileKind::kElf, 42);
  files.Add("/t/lib/libbar.so", "/t/usr/lib/libbar.so.2", "/t", FileKind::kElf, 7);
  ASSERT_EQ(files.size(), 2u);
  WalkedFile bar = files.at(1);
  EXPECT_EQ(bar.path, "/t/lib/libbar.so");
  EXPECT_EQ(bar.real_path, "/t/usr/lib/libbar.so.2");
  EXPECT_EQ(bar.prefix, "/t");
  EXPECT_EQ(bar.kind, FileKind::kElf);
  EXPECT_EQ(bar.size, 7u);
  // A real path that is the path is not stored twice, but reads the same.
  EXPECT_EQ(files.real_path(0), "/t/usr/lib/libfoo.so.1");
  EXPECT_EQ(files.real_path(0).data(), files.path(0).data());
  EXPECT_NE(files.real_path(1).data(), files.path(1).data());
  EXPECT_THROW(files.at(2), std::out_of_range);
}

TEST(WalkedFiles, PathsStayPutAcrossBlocksAndLongerThanABlock) {
  WalkedFiles files;
  std::vector<std::string> paths;
  for (int i = 0; i < 5000; ++i)
    paths.push_back("/prefix/usr/lib/rocblas/library/Kernels.so-" + std::to_string(i));
  paths.push_back("/prefix/" + std::string(100000, 'x'));  // beyond a 64 KiB block
  for (int i = 0; i < 10; ++i) paths.push_back("/prefix/after-" + std::to_string(i));
  for (const std::string& p : paths) files.Add(p, p, "/prefix", FileKind::kOffloadBundle, p.size());
  ASSERT_EQ(files.size(), paths.size());
  for (size_t i = 0; i < paths.size(); ++i) {
    EXPECT_EQ(files.path(i), paths[i]);
    EXPECT_EQ(files.file_size(i), paths[i].size());
  }
}

TEST(WalkedFiles, AMovedEntryKeepsItsRealPath) {
  WalkedFiles files;
  // Met first through a symlinked directory, then at its installed path.
  files.Add("/t/lib/libfoo.so.1", "/t/usr/lib/libfoo.so.1", "/t", FileKind::kElf, 1);
  files.Move(0, "/t/usr/lib/libfoo.so.1", "/u");
  EXPECT_EQ(files.path(0), "/t/usr/lib/libfoo.so.1");
  EXPECT_EQ(files.real_path(0), "/t/usr/lib/libfoo.so.1");
  EXPECT_EQ(files.prefix(0), "/u");
  // And the other way: the real path was the path it no longer has.
  files.Add("/t/usr/lib/libbar.so", "/t/usr/lib/libbar.so", "/t", FileKind::kElf, 1);
  files.Move(1, "/t/other/libbar.so", "/t");
  EXPECT_EQ(files.path(1), "/t/other/libbar.so");
  EXPECT_EQ(files.real_path(1), "/t/usr/lib/libbar.so");
}

TEST(WalkedFiles, PrefixesAreListedOnceFirstSeenFirst) {
  WalkedFiles files;
  for (const char* prefix : {"/b", "/a", "/b", "/c", "/a"}) files.Add("/x", "/x", prefix, FileKind::kElf, 0);
  EXPECT_EQ(files.prefixes(), (std::vector<std::string>{"/b", "/a", "/c"}));
  EXPECT_EQ(files.prefix(4), "/a");
}

TEST(WalkedFiles, ACopyIsItsOwnAndAMovedFromListIsEmpty) {
  WalkedFiles files;
  files.Add("/t/a.so", "/t/a.so", "/t", FileKind::kElf, 1);
  WalkedFiles copy = files;
  copy.Add("/t/b.so", "/t/b.so", "/t", FileKind::kElf, 2);
  copy.Move(0, "/t/c.so", "/t");
  EXPECT_EQ(files.size(), 1u);
  EXPECT_EQ(files.path(0), "/t/a.so");
  EXPECT_EQ(copy.path(0), "/t/c.so");

  WalkedFiles moved = std::move(files);
  EXPECT_EQ(moved.path(0), "/t/a.so");
  EXPECT_TRUE(files.empty());  // NOLINT(bugprone-use-after-move): what is left must be usable
  files.Add("/t/d.so", "/t/d.so", "/t", FileKind::kElf, 3);
  EXPECT_EQ(files.path(0), "/t/d.so");
  EXPECT_EQ(moved.path(0), "/t/a.so");  // not written over by the moved-from list
  std::vector<std::string> seen;
  for (const WalkedFile& f : copy) seen.push_back(f.path);
  EXPECT_EQ(seen, (std::vector<std::string>{"/t/c.so", "/t/b.so"}));
}

}  // namespace
}  // namespace rocm_audit::testing
