// The arena the base scan maps ELF files in: each view holds its file's bytes, past the
// files one region holds, and a file it cannot map (empty, or a descriptor mmap refuses) is
// left to the caller without spoiling the files after it.
#include "audit/elf/mapped_file_arena.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

// A file of `size` bytes that names its number throughout, so that no two files agree.
std::string Contents(size_t i, size_t size) {
  std::string out;
  while (out.size() < size) out += "file " + std::to_string(i) + ";";
  out.resize(size);
  return out;
}

// `contents` mapped in `arena` through a file of `t`, or none.
std::optional<std::string> MapContents(MappedFileArena& arena, const TempDir& t, size_t i,
                                       const std::string& contents) {
  const std::string path = t / ("f" + std::to_string(i));
  std::ofstream(path, std::ios::binary) << contents;
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  auto view = arena.Map(fd, contents.size());
  close(fd);  // a mapping outlives its descriptor
  if (!view) return std::nullopt;
  return std::string(*view);
}

// Sizes from a byte to several pages, and more files than a region holds (1,024).
TEST(MappedFileArena, EachViewHoldsItsFileInRegionAfterRegion) {
  TempDir t;
  MappedFileArena arena;
  for (size_t i = 0; i < 2500; ++i) {
    const std::string contents = Contents(i, 1 + (i % 40) * 997);
    EXPECT_EQ(MapContents(arena, t, i, contents), contents) << i;
  }
}

TEST(MappedFileArena, AFileItCannotMapIsTheCallersAndTheNextOneMaps) {
  TempDir t;
  MappedFileArena arena;
  const std::string first = Contents(1, 5000), next = Contents(2, 3000);
  EXPECT_EQ(MapContents(arena, t, 1, first), first);
  EXPECT_EQ(MapContents(arena, t, 0, ""), std::nullopt);  // nothing to map
  // mmap refuses a pipe (ENODEV), after the region holds a file.
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  EXPECT_FALSE(arena.Map(pipe_fds[0], 4096).has_value());
  close(pipe_fds[0]);
  close(pipe_fds[1]);
  EXPECT_EQ(MapContents(arena, t, 2, next), next);
}

}  // namespace
}  // namespace rocm_audit::testing
