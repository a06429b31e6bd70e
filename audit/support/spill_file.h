// Unnamed files that hold what would otherwise stay in anonymous memory until the end of a
// run (zstd windows past their share, the JSON report's files[] as it is rendered).
#pragma once

#include <string>
#include <vector>

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/vfs.h>
#include <unistd.h>

namespace rocm_audit {

/// An unnamed file (O_TMPFILE) in the first of `dirs` that gives one, or -1. A directory does
/// not when it does not exist, its filesystem has no O_TMPFILE, or it is a tmpfs, whose pages
/// would be memory all the same (Debian 13 mounts /tmp so). The file has no name: the
/// directory's listing and mtime do not change, and it is gone when closed.
inline int OpenSpillFile(const std::vector<std::string>& dirs) {
  for (const std::string& dir : dirs) {
    if (dir.empty()) continue;
    int fd = open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd < 0) continue;
    // Never a standard descriptor: with the standard output closed, open() gives 1, and the
    // report would be written into the spill file.
    if (fd <= STDERR_FILENO) {
      int moved = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
      close(fd);
      if (moved < 0) continue;
      fd = moved;
    }
    struct statfs fs{};
    if (fstatfs(fd, &fs) == 0 && fs.f_type != TMPFS_MAGIC) return fd;
    close(fd);
  }
  return -1;
}

}  // namespace rocm_audit
