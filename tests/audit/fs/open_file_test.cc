#include "audit/fs/open_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;

// A regular file is read whole; past the cap it is refused, or cut when the caller takes its
// start; a FIFO, a directory and a missing file are refused unread, each saying why in the
// words the walk uses. The FIFO has no writer: opened for reading without O_NONBLOCK, it would
// block this test for ever.
TEST(ReadRegularFile, ReadsARegularFileAndSaysWhyItRefusesAnyOther) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), "printf 0123456789 > ten && mkfifo pipe && mkdir dir && ln -s ten link"));
  RegularFileText whole = ReadRegularFile(t / "link", 10);
  ASSERT_TRUE(whole.text) << whole.why;
  EXPECT_EQ(*whole.text, "0123456789");
  EXPECT_TRUE(S_ISREG(whole.st.st_mode));
  EXPECT_EQ(whole.st.st_size, 10);

  RegularFileText large = ReadRegularFile(t / "ten", 9);
  EXPECT_FALSE(large.text);
  EXPECT_EQ(large.why, "is larger than 9 bytes");
  RegularFileText cut = ReadRegularFile(t / "ten", 4, PastCap::kCut);
  ASSERT_TRUE(cut.text);
  EXPECT_EQ(*cut.text, "0123");

  RegularFileText fifo = ReadRegularFile(t / "pipe", 1 << 20);
  EXPECT_FALSE(fifo.text);
  EXPECT_EQ(fifo.why, "is not a regular file (a FIFO)");
  RegularFileText dir = ReadRegularFile(t / "dir", 1 << 20);
  EXPECT_FALSE(dir.text);
  EXPECT_EQ(dir.why, "cannot be opened: Is a directory");
  RegularFileText missing = ReadRegularFile(t / "none", 1 << 20);
  EXPECT_FALSE(missing.text);
  EXPECT_THAT(missing.why, HasSubstr("cannot be opened: No such file"));
}

// With Links::kRefuse the file must be the path itself: a link (to a regular file, or to
// /dev/zero, which would never end) is refused unread.
TEST(ReadRegularFile, RefusesALinkWhenAskedNotToFollowOne) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), "printf 0123456789 > ten && ln -s ten link && ln -s /dev/zero zero"));
  RegularFileText own = ReadRegularFile(t / "ten", 10, PastCap::kRefused, Links::kRefuse);
  ASSERT_TRUE(own.text);
  EXPECT_EQ(*own.text, "0123456789");
  for (const char* link : {"link", "zero"}) {
    RegularFileText refused = ReadRegularFile(t / link, 10, PastCap::kCut, Links::kRefuse);
    EXPECT_FALSE(refused.text) << link;
    EXPECT_EQ(refused.why, "cannot be opened: a symbolic link, not followed") << link;
  }
}

}  // namespace
}  // namespace rocm_audit::testing
