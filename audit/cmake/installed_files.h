// The files a package's list files see, by the paths of the installed system: through
// the --root layers, except for audited paths that lie outside every layer (a staged tree
// audited with --root /), which are read where they are. Read-only; nothing is created.
// Paths are taken as the kernel takes them: ".." is the parent of what the path before it
// names after its symlinks are followed, and "staging/../lib" does not exist when staging/
// does not (CMake's EXISTS and its checks of imported files ask the kernel).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "audit/cmake/condition.h"
#include "audit/fs/rooted_fs.h"

namespace rocm_audit {

class InstalledFiles {
 public:
  /// `outside` are host paths (audited prefixes) that no layer holds; `has_base`: the world
  /// is a whole system (the host, or --root layers), not packages installed into an empty one
  /// (--no-base), so what it lacks a consumer on that machine lacks too.
  InstalledFiles(const RootedFs& fs, std::vector<std::string> outside, bool has_base = true)
      : fs_(fs), outside_(std::move(outside)), has_base_(has_base) {}

  bool has_base() const { return has_base_; }

  Tri Exists(const std::string& path) const;
  Tri IsDirectory(const std::string& path) const;
  Tri IsSymlink(const std::string& path) const;
  /// Symlinks resolved, as an installed path; nullopt when it does not exist.
  std::optional<std::string> RealPath(const std::string& path) const;
  /// Installed paths matching an absolute wildcard pattern ('*', '?', '[...]'); `cut` when
  /// the pattern read more than kMaxGlobEntries directory entries (the result is partial).
  std::vector<std::string> Glob(const std::string& pattern, bool* cut = nullptr,
                                GlobOrder order = GlobOrder::kByPath) const;
  /// The file's text, at most `cap` bytes; nullopt when it cannot be read or is larger,
  /// and then `why` (when given) says which, as the walk would name it: "is not a regular
  /// file (a FIFO)", "is larger than N bytes", "does not exist", "cannot be opened: ...".
  std::optional<std::string> Read(const std::string& path, size_t cap, std::string* why = nullptr) const;

  /// The installed path of a host path (the layer prefix removed).
  std::string InstalledPath(const std::string& host_path) const;

 private:
  std::optional<std::string> ReadRegular(const std::string& path, size_t cap, std::string* why) const;
  std::string HostOf(const std::string& path) const;
  /// `path` with every ".." taken physically (an installed path without ".."); nullopt when
  /// a ".." follows something that is not an existing directory. `through_proc`, when given,
  /// is set when a directory a ".." left was reached through a link in the host's /proc.
  std::optional<std::string> Physical(const std::string& path, bool* through_proc = nullptr) const;
  bool Outside(const std::string& path) const;

  const RootedFs& fs_;
  std::vector<std::string> outside_;
  bool has_base_;
};

}  // namespace rocm_audit
