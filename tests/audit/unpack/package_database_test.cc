// What a package database says the installed copy of a package owns (package_database.h):
// dpkg's, pacman's and Portage's formats, a name that is another's prefix, and database files
// that are no regular files.
#include "audit/unpack/package_database.h"

#include <sys/stat.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::IsEmpty;
using ::testing::UnorderedElementsAre;

// A root with the package's files, so that a listed directory is known as one.
void MakeRoot(const std::string& root) {
  ASSERT_EQ(RunCommand("mkdir -p " + root + "/usr/lib " + root + "/usr/share/with\\ space"), 0);
}

TEST(InstalledFiles, DpkgListsAbsolutePathsByNameAndArchitecture) {
  TempDir t;
  MakeRoot(t.path());
  WriteAll(t / "var/lib/dpkg/info/libx1:amd64.list", "/.\n/usr\n/usr/lib\n/usr/lib/libx.so.1\n");
  WriteAll(t / "var/lib/dpkg/info/libx1-dev.list", "/usr/lib/libx.so\n");
  EXPECT_THAT(InstalledFilesOf(t.path(), {{"libx1", ""}}), UnorderedElementsAre("/usr/lib/libx.so.1"));
  EXPECT_THAT(InstalledFilesOf(t.path(), {{"libx1", "amd64"}}), UnorderedElementsAre("/usr/lib/libx.so.1"));
  EXPECT_THAT(InstalledFilesOf(t.path(), {{"libx1", "i386"}}), IsEmpty());
}

// pacman names a package by its desc's %NAME%, not by its directory: rocm-hip's directory
// is a prefix of rocm-hip-runtime's, and only the first is asked for.
TEST(InstalledFiles, PacmanListsPathsUnderFilesByTheDescsName) {
  TempDir t;
  MakeRoot(t.path());
  const std::string local = t / "var/lib/pacman/local/";
  WriteAll(local + "rocm-hip-6.2.4-1/desc", "%NAME%\nrocm-hip\n\n%VERSION%\n6.2.4-1\n\n");
  WriteAll(
      local + "rocm-hip-6.2.4-1/files",
      "%FILES%\nusr/\nusr/lib/\nusr/lib/libamdhip64.so.6\nusr/share/with space/a b\n\n%BACKUP%\netc/x\n");
  WriteAll(local + "rocm-hip-runtime-6.2.4-1/desc", "%NAME%\nrocm-hip-runtime\n\n");
  WriteAll(local + "rocm-hip-runtime-6.2.4-1/files", "%FILES%\nusr/lib/libother.so\n");
  EXPECT_THAT(InstalledFilesOf(t.path(), {{"rocm-hip", ""}}),
              UnorderedElementsAre("/usr/lib/libamdhip64.so.6", "/usr/share/with space/a b"));
}

// Portage's CONTENTS: obj with its checksum and time, sym with its target, dir lines left
// out; a path may hold spaces. The package is NAME or CATEGORY/NAME, and a directory is
// NAME's only when a version follows "NAME-".
TEST(InstalledFiles, PortageListsContentsByNameOrCategoryAndName) {
  TempDir t;
  MakeRoot(t.path());
  WriteAll(
      t / "var/db/pkg/dev-util/hip-6.1.1/CONTENTS",
      "dir /usr\ndir /usr/lib\nobj /usr/lib/libamdhip64.so.6.1 0123456789abcdef0123456789abcdef 1700000000\n"
      "sym /usr/lib/libamdhip64.so.6 -> libamdhip64.so.6.1 1700000000\n"
      "obj /usr/share/with space/a b 0123456789abcdef0123456789abcdef 1700000000\n");
  WriteAll(t / "var/db/pkg/dev-util/hip-tests-6.1.1/CONTENTS", "obj /usr/lib/other 0 1\n");
  const auto expected = UnorderedElementsAre("/usr/lib/libamdhip64.so.6.1", "/usr/lib/libamdhip64.so.6",
                                             "/usr/share/with space/a b");
  EXPECT_THAT(InstalledFilesOf(t.path(), {{"hip", ""}}), expected);
  EXPECT_THAT(InstalledFilesOf(t.path(), {{"dev-util/hip", ""}}), expected);
  EXPECT_THAT(InstalledFilesOf(t.path(), {{"sys-libs/hip", ""}}), IsEmpty());
}

// A FIFO where a database file should be is not opened (open(2) would wait for a writer),
// and a name with glob characters is no package's.
TEST(InstalledFiles, DatabaseFilesThatAreNotRegularAreNotRead) {
  TempDir t;
  MakeRoot(t.path());
  ASSERT_EQ(RunCommand("mkdir -p " + t / "var/lib/dpkg/info " + t / "var/lib/pacman/local/fifo-1-1 " +
                       t / "var/db/pkg/cat/fifo-1 && mkfifo " + t / "var/lib/dpkg/info/fifo.list " +
                       t / "var/lib/pacman/local/fifo-1-1/desc " + t / "var/db/pkg/cat/fifo-1/CONTENTS"),
            0);
  EXPECT_THAT(InstalledFilesOf(t.path(), {{"fifo", ""}}), IsEmpty());
  WriteAll(t / "var/lib/dpkg/info/libx1.list", "/usr/lib/libx.so.1\n");
  EXPECT_THAT(InstalledFilesOf(t.path(), {{"libx*", ""}}), IsEmpty());
}

// A database file that is a symbolic link is not read through: a package manager writes its
// database itself, and a link there (to another package's list, to /dev/zero) is no record
// of what the package owns.
TEST(InstalledFiles, DatabaseFilesThatAreLinksAreNotFollowed) {
  TempDir t;
  MakeRoot(t.path());
  WriteAll(t / "elsewhere.list", "/usr/lib/libx.so.1\n");
  WriteAll(t / "var/db/pkg/cat/linked-1/elsewhere", "obj /usr/lib/liby.so.1 0 1\n");
  ASSERT_EQ(RunCommand("mkdir -p " + t / "var/lib/dpkg/info" + " && ln -s ../../../../elsewhere.list " +
                       t / "var/lib/dpkg/info/linked.list" + " && ln -s elsewhere " +
                       t / "var/db/pkg/cat/linked-1/CONTENTS"),
            0);
  EXPECT_THAT(InstalledFilesOf(t.path(), {{"linked", ""}}), IsEmpty());
}

}  // namespace
}  // namespace rocm_audit::testing
