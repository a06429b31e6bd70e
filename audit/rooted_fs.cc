#include "audit/rooted_fs.h"

#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <deque>
#include <filesystem>

namespace rocm_audit {
namespace {

// Linux's limit on symlinks followed in one path resolution (MAXSYMLINKS).
constexpr int kMaxSymlinks = 40;

std::deque<std::string> Components(std::string_view path) {
  std::deque<std::string> out;
  size_t i = 0;
  while (i < path.size()) {
    size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    if (j > i) out.emplace_back(path.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

std::string ReadLink(const std::string& path) {
  char buf[PATH_MAX];
  ssize_t n = readlink(path.c_str(), buf, sizeof buf);
  return n < 0 ? std::string() : std::string(buf, static_cast<size_t>(n));
}

}  // namespace

std::string NormalizePath(std::string_view path) {
  std::string out;
  std::deque<std::string> parts = Components(path);
  std::deque<std::string> kept;
  for (auto& p : parts) {
    if (p == ".") continue;
    if (p == "..") {
      if (!kept.empty() && kept.back() != "..") kept.pop_back();
      else if (path.empty() || path[0] != '/') kept.push_back(p);
      continue;
    }
    kept.push_back(std::move(p));
  }
  bool absolute = !path.empty() && path[0] == '/';
  for (const auto& p : kept) {
    if (!out.empty() || absolute) out += '/';
    out += p;
  }
  if (out.empty()) return absolute ? "/" : ".";
  return out;
}

std::string DirName(std::string_view path) {
  size_t slash = path.rfind('/');
  if (slash == std::string_view::npos) return ".";
  if (slash == 0) return "/";
  return std::string(path.substr(0, slash));
}

std::string_view BaseName(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

RootedFs::RootedFs(std::string root) {
  if (root.empty()) return;
  std::error_code ec;
  auto canonical = std::filesystem::weakly_canonical(std::filesystem::absolute(root, ec), ec);
  root_ = ec ? NormalizePath(root) : canonical.string();
  if (root_ == "/") root_.clear();
  while (root_.size() > 1 && root_.back() == '/') root_.pop_back();
}

std::string RootedFs::HostPath(std::string_view absolute) const {
  if (root_.empty()) return std::string(absolute);
  return root_ + NormalizePath(absolute);
}

bool RootedFs::IsUnderRoot(const std::string& host_path) const {
  if (root_.empty()) return true;
  return host_path.compare(0, root_.size(), root_) == 0 &&
         (host_path.size() == root_.size() || host_path[root_.size()] == '/');
}

std::string RootedFs::DisplayPath(const std::string& host_path) const {
  if (root_.empty() || !IsUnderRoot(host_path)) return host_path;
  std::string rest = host_path.substr(root_.size());
  return rest.empty() ? "/" : rest;
}

std::optional<std::string> RootedFs::Resolve(const std::string& host_path, std::string* why) const {
  std::string absolute = host_path;
  if (absolute.empty() || absolute[0] != '/') {
    std::error_code ec;
    absolute = std::filesystem::absolute(host_path, ec).string();
  }
  // Outside the root (or no root): the kernel's own resolution is the right one.
  bool rooted = has_root() && IsUnderRoot(NormalizePath(absolute));
  std::string base = rooted ? root_ : std::string();
  std::string rel = rooted ? NormalizePath(absolute).substr(root_.size()) : absolute;

  std::deque<std::string> todo = Components(rel);
  std::string cur;  // path below `base`, "" = base itself
  int links = 0;
  while (!todo.empty()) {
    std::string comp = std::move(todo.front());
    todo.pop_front();
    if (comp == ".") continue;
    if (comp == "..") {
      size_t slash = cur.rfind('/');
      cur = slash == std::string::npos ? std::string() : cur.substr(0, slash);
      continue;
    }
    std::string next = cur + "/" + comp;
    struct stat st;
    if (lstat((base + next).c_str(), &st) != 0) {
      if (why) *why = "does not exist";
      return std::nullopt;
    }
    if (!S_ISLNK(st.st_mode)) {
      cur = std::move(next);
      continue;
    }
    if (++links > kMaxSymlinks) {
      if (why) *why = "symlink loop";
      return std::nullopt;
    }
    std::string target = ReadLink(base + next);
    std::deque<std::string> target_parts = Components(target);
    if (!target.empty() && target[0] == '/') cur.clear();
    todo.insert(todo.begin(), target_parts.begin(), target_parts.end());
  }
  return base + (cur.empty() ? (base.empty() ? "/" : "") : cur);
}

bool RootedFs::IsDirectory(const std::string& host_path) const {
  auto real = Resolve(host_path);
  struct stat st;
  return real && stat(real->c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace rocm_audit
