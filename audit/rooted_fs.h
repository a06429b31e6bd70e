// Path resolution as a process chrooted at --root would see it: absolute symlink targets
// and absolute search directories land inside the root, ".." never climbs out of it.
// Without a root this is the host's own resolution.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace rocm_audit {

class RootedFs {
 public:
  explicit RootedFs(std::string root = "");

  const std::string& root() const { return root_; }
  bool has_root() const { return !root_.empty(); }

  /// Host path of an absolute path inside the root (lexical: root + path).
  std::string HostPath(std::string_view absolute) const;
  /// The path as the installed system would see it (root prefix removed), for messages.
  std::string DisplayPath(const std::string& host_path) const;
  bool IsUnderRoot(const std::string& host_path) const;

  /// Follows every symlink (re-rooting absolute targets when the link is inside the root)
  /// and returns the host path of the final object. nullopt when it does not exist or
  /// loops; `why` then says which.
  std::optional<std::string> Resolve(const std::string& host_path, std::string* why = nullptr) const;

  bool IsDirectory(const std::string& host_path) const;

 private:
  std::string root_;  ///< canonical, no trailing slash; empty = host
};

/// Lexically normalises an absolute path: removes "." and empty components, folds "..".
std::string NormalizePath(std::string_view path);
/// Directory part of a path ("/a/b/c" -> "/a/b", "c" -> ".").
std::string DirName(std::string_view path);
std::string_view BaseName(std::string_view path);

}  // namespace rocm_audit
