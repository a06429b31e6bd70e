// A directory's names, listed once (audit/fs/directory_names.h): what a loader search asks
// of many names in one directory, as ld.so.cache answers it.
#include "audit/fs/directory_names.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

TEST(DirectoryNames, HoldsTheNamesOfEveryLayerAndNoOthers) {
  TempDir t;
  ASSERT_TRUE(
      BuildTree(t.path(),
                "mkdir -p top/lib base/lib && echo x > top/lib/liba.so.1 && echo x > base/lib/libb.so.1\n"
                "ln -s nowhere base/lib/libdangling.so && mkdir base/lib/sub"));
  auto names = DirectoryNames::List({t / "top/lib", t / "base/lib", t / "absent/lib"});
  ASSERT_TRUE(names);
  for (const char* held : {"liba.so.1", "libb.so.1", "libdangling.so", "sub"})
    EXPECT_TRUE(names->MayHold(held)) << held;
  for (const char* absent : {"libc.so.6", "liba.so", ".", "..", ""})
    EXPECT_FALSE(names->MayHold(absent)) << absent;
  EXPECT_EQ(names->size(), 4u);
}

TEST(DirectoryNames, WhatIsNoDirectoryHoldsNothingAndIsNeverOpenedAsAFile) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), "echo x > file && mkfifo fifo"));
  // A FIFO in a directory's place: not opened for reading (that would wait for a writer).
  auto names = DirectoryNames::List({t / "file", t / "fifo", t / "missing"});
  ASSERT_TRUE(names);
  EXPECT_EQ(names->size(), 0u);
}

TEST(DirectoryNames, ADirectoryPastTheBoundIsNotListed) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), "mkdir big && touch big/a big/b big/c"));
  EXPECT_TRUE(DirectoryNames::List({t / "big"}, 3));
  EXPECT_FALSE(DirectoryNames::List({t / "big"}, 2)) << "a listing cut short would call the rest absent";
}

// Root reads any directory: as root (CI), the listing is made by a child that has become
// nobody (65534), which the directory's mode keeps out as it keeps out any user.
TEST(DirectoryNames, AnUnreadableDirectoryIsNotListed) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), "mkdir big && touch big/a"));
  ASSERT_EQ(chmod(t.path().c_str(), 0755), 0);
  ASSERT_EQ(chmod((t / "big").c_str(), 0300), 0);
  if (geteuid() != 0) {
    EXPECT_FALSE(DirectoryNames::List({t / "big"}));
  } else {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      if (setgid(65534) != 0 || setuid(65534) != 0) _exit(3);
      _exit(DirectoryNames::List({t / "big"}) ? 1 : 0);
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "1: listed; 3: could not become nobody";
  }
  chmod((t / "big").c_str(), 0755);
}

}  // namespace
}  // namespace rocm_audit::testing
