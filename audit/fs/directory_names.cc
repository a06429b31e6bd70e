#include "audit/fs/directory_names.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>

namespace rocm_audit {
namespace {

uint64_t HashOf(std::string_view name) { return std::hash<std::string_view>{}(name); }

enum class Listed { kWhole, kNothing, kUnknown };

// Appends the hashes of `host_dir`'s entries to `out`, at most `max_entries` in all.
Listed ListInto(const std::string& host_dir, size_t max_entries, std::vector<uint64_t>* out) {
  // O_DIRECTORY: a FIFO or device in a directory's place fails (ENOTDIR) instead of being
  // opened; O_NONBLOCK keeps even that open from waiting.
  int fd = open(host_dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return errno == ENOENT || errno == ENOTDIR ? Listed::kNothing : Listed::kUnknown;
  DIR* dir = fdopendir(fd);
  if (!dir) {
    close(fd);
    return Listed::kUnknown;
  }
  Listed result = Listed::kWhole;
  for (;;) {
    errno = 0;
    const dirent* e = readdir(dir);
    if (!e) {
      if (errno != 0) result = Listed::kUnknown;  // a listing cut short says nothing of the rest
      break;
    }
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    if (out->size() >= max_entries) {
      result = Listed::kUnknown;
      break;
    }
    out->push_back(HashOf(e->d_name));
  }
  closedir(dir);
  return result;
}

}  // namespace

std::optional<DirectoryNames> DirectoryNames::List(const std::vector<std::string>& host_dirs,
                                                   size_t max_entries) {
  DirectoryNames names;
  for (const std::string& d : host_dirs)
    if (ListInto(d, max_entries, &names.hashes_) == Listed::kUnknown) return std::nullopt;
  std::sort(names.hashes_.begin(), names.hashes_.end());
  names.hashes_.shrink_to_fit();
  return names;
}

bool DirectoryNames::MayHold(std::string_view name) const {
  return std::binary_search(hashes_.begin(), hashes_.end(), HashOf(name));
}

}  // namespace rocm_audit
