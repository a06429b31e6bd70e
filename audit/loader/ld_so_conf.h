// Reads ld.so.conf the way ldconfig does: one or more directories per line, comments,
// "include GLOB" (relative to the including file's directory), "hwcap" lines ignored. Each
// file is read at most once (by device and inode), never blocking: a FIFO, socket or device
// where a configuration file is expected is not read, and only the first 16 MiB of a file.
#pragma once

#include <string>
#include <vector>

#include "audit/fs/rooted_fs.h"

namespace rocm_audit {

/// Directories from `conf_path` (an absolute path inside the root), in file order,
/// duplicates removed. A missing file yields no directories.
std::vector<std::string> ReadLdSoConf(const RootedFs& fs, const std::string& conf_path);

}  // namespace rocm_audit
