// Spill files: unnamed, never on a tmpfs, and never a standard descriptor (with the standard
// output closed, the report would otherwise be written into one).
#include "audit/support/spill_file.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>

#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

TEST(SpillFile, IsUnnamedAndNeverAStandardDescriptor) {
  TempDir dir(DiskDir());
  const int saved = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
  ASSERT_GE(saved, 0);
  close(STDIN_FILENO);  // the lowest free descriptor is now 0
  const int fd = OpenSpillFile({"/nonexistent/rocm-audit-spill", dir.path()});
  const int free_again = fcntl(saved, F_DUPFD, 0);  // where stdin was: free again?
  dup2(saved, STDIN_FILENO);
  close(saved);
  ASSERT_GE(fd, 0);
  EXPECT_GT(fd, STDERR_FILENO);
  EXPECT_EQ(free_again, STDIN_FILENO) << "the spill file kept the standard descriptor";
  if (free_again > STDIN_FILENO) close(free_again);
  EXPECT_EQ(write(fd, "x", 1), 1);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
  close(fd);
  EXPECT_EQ(OpenSpillFile({}), -1);
}

}  // namespace
}  // namespace rocm_audit::testing
