#include "checks/installed_elsewhere.h"

#include <sys/stat.h>

#include <deque>
#include <filesystem>
#include <system_error>

#include "audit/fs/path.h"

namespace rocm_audit {
namespace {

// A tree may be a whole distribution: the search reads directory entries only, never follows
// a symlink, and stops after this many directories, over ten times what the root of a whole
// Debian system holds.
constexpr size_t kMaxDirectories = 50000;
constexpr size_t kMaxDepth = 16;

}  // namespace

void InstalledElsewhere::Index() {
  indexed_ = true;
  std::deque<std::pair<std::string, size_t>> todo{{under_, 0}};
  size_t seen = 0;
  while (!todo.empty() && seen < kMaxDirectories) {
    auto [dir, depth] = std::move(todo.front());
    todo.pop_front();
    ++seen;
    directories_by_name_[std::string(BaseName(dir))].push_back(dir);
    if (depth >= kMaxDepth) continue;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
      if (it->is_directory(ec) && !it->is_symlink(ec)) todo.emplace_back(it->path().string(), depth + 1);
  }
}

std::string InstalledElsewhere::Find(const std::string& missing) {
  if (!indexed_) Index();
  const std::string name(BaseName(missing)), leaf(BaseName(DirName(missing)));
  auto it = directories_by_name_.find(leaf);
  if (it == directories_by_name_.end()) return "";
  for (const std::string& dir : it->second) {
    std::string candidate = dir + "/" + name;
    struct stat st;
    if (lstat(candidate.c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) return candidate;
  }
  return "";
}

}  // namespace rocm_audit
