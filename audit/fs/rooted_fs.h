// Path resolution as a process chrooted into the installed system would see it. The
// system is one or more root layers, searched top first at every path component like an
// overlay mount: `--root $DESTDIR --root /` is a staged package installed over the host.
// Absolute symlink targets and absolute search directories land inside the layers, ".."
// never climbs out of them. Without any root this is the host's own resolution.
// A layer may hide some of its own paths: the files that the installed copies of the
// packages being audited own there, which installing the new versions removes (design.md
// §1.1, the installed world).
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "audit/fs/link_memo.h"
#include "audit/fs/path.h"

namespace rocm_audit {

/// The directory entries one RootedFs::Glob may read.
constexpr size_t kMaxGlobEntries = 100000;

/// The order of RootedFs::Glob's matches: by path, or as each directory lists its entries
/// (readdir(3)), layer by layer, which is find_package()'s order for the directories its
/// `<name>*` patterns match (CMake 3.25 sorts them only when CMAKE_FIND_PACKAGE_SORT_ORDER
/// is set, and a consumer seldom sets it).
enum class GlobOrder { kByPath, kAsListed };

/// Why a resolution failed (the `why` of RootedFs's resolutions), in the words messages use.
/// A component is missing (ENOENT, ENOTDIR).
inline constexpr std::string_view kNoSuchPath = "does not exist";
/// The links form a cycle: the resolution would never end.
inline constexpr std::string_view kSymlinkCycle = "symlink loop";
/// More than the kernel's 40 links (MAXSYMLINKS) in one resolution, without a cycle: open()
/// fails with ELOOP all the same.
inline constexpr std::string_view kTooManySymlinks =
    "resolving it follows more than 40 symbolic links, Linux's limit (MAXSYMLINKS): opening it fails "
    "with ELOOP, though the links form no cycle";
/// A path the kernel refuses for its length (ENAMETOOLONG: a path of PATH_MAX bytes or more,
/// or a component past NAME_MAX).
inline constexpr std::string_view kPathTooLong =
    "the path is too long to open (ENAMETOOLONG, PATH_MAX 4096 bytes)";

/// The text of a symbolic link ("" when `path` is no link or cannot be read).
std::string ReadLink(const std::string& path);

class RootedFs {
 public:
  RootedFs() = default;
  /// One root; "" or "/" is the host.
  explicit RootedFs(const std::string& root);
  /// Layers, top first; "/" is the host's own tree as a (usually last) layer.
  explicit RootedFs(const std::vector<std::string>& layers);

  bool has_root() const { return !layers_.empty(); }
  /// Paths of the installed system ("/usr/lib/libx.a") that layer `layer` (an index into
  /// the layers) does not show, as if removed from it; a layer below or above still may.
  /// Only non-directories are hidden: a hidden directory would take what other packages
  /// installed below it.
  void Hide(size_t layer, std::unordered_set<std::string> paths);
  /// How many paths layer `layer` hides.
  size_t HiddenCount(size_t layer) const;
  /// The layers as given, canonicalised ("/" for the host).
  std::vector<std::string> layers() const;

  /// Host path of an absolute path of the installed system, in the top layer (lexical).
  /// Resolve() finds it in whichever layer holds it.
  std::string HostPath(std::string_view absolute) const;
  /// The path as the installed system sees it (layer prefix removed), for messages.
  std::string DisplayPath(const std::string& host_path) const;
  /// The length of the path the installed system's open() is given for `host_path` (a layer
  /// prefix removed, nothing normalised): what the kernel holds to PATH_MAX.
  size_t InstalledLength(const std::string& host_path) const;

  /// Follows every symlink (re-rooting absolute targets) and returns the host path of the
  /// final object. nullopt when it does not exist or loops; `why` then says which (one of
  /// kNoSuchPath, kSymlinkCycle, kTooManySymlinks, kPathTooLong).
  std::optional<std::string> Resolve(const std::string& host_path, std::string* why = nullptr) const;

  /// A resolved path: where the installed system sees it and the host file that holds it.
  struct Resolved {
    std::string path;        ///< in the installed system ("" is "/"); the host's own without a root
    std::string host;        ///< what Resolve() returns
    bool in_layers = false;  ///< resolved inside the layers, not on the host
    int links = 0;           ///< symbolic links followed on the way
    /// A link on the way was read from the host's /proc (/proc/self/cwd, /proc/self/fd/N):
    /// what it resolves to is the auditing process's own state, not the tree's.
    bool through_proc = false;

    /// "/proc" or "/sys" when what this names is the kernel's view of the process and
    /// machine that open it, never a file of the installed system: it lies in /proc or
    /// /sys, or a link on the way was read from the host's /proc. Opened by the auditor, it
    /// would show the auditor's own state (/proc/self/exe is rocm-audit, /proc/self/cwd its
    /// working directory), so nothing there is ever read. "" for any other path.
    std::string_view KernelView() const { return through_proc ? "/proc" : KernelFileSystemOf(path); }
  };
  /// Resolve(), keeping where the path landed: a walk resolves each directory once and then
  /// its entries one component each with ResolveEntry, not every component of every file.
  std::optional<Resolved> ResolveFully(const std::string& host_path, std::string* why = nullptr) const;
  /// Resolve() of `dir`'s host path + "/" + `name`, for `dir` from ResolveFully or
  /// ResolveEntry and a `name` without slashes.
  std::optional<Resolved> ResolveEntry(const Resolved& dir, const std::string& name,
                                       std::string* why = nullptr) const;
  /// Resolve() of `dir`'s path + "/" + `name`, exactly: as ResolveEntry, but the links
  /// followed to `dir` count towards the kernel's limit, as in one resolution of the whole
  /// path. A loader search resolves each directory once and then each name in it.
  std::optional<Resolved> ResolveChild(const Resolved& dir, const std::string& name,
                                       std::string* why = nullptr) const;

  bool IsDirectory(const std::string& host_path) const;

  /// The lstat(2) and readlink(2) calls resolutions of this view and its copies made: a
  /// directory is looked at once per run, however many paths pass through it.
  uint64_t Lookups() const { return lookups_->load(std::memory_order_relaxed); }

  /// Host paths matching an absolute glob pattern in any layer (the top layer wins for a
  /// path that several hold), in `order` (by their path in the installed system unless
  /// asked otherwise). A pattern may read at most kMaxGlobEntries directory entries
  /// (a/*/*/... over links to "." doubles them at every level); past that the result is cut
  /// short and `cut` says so.
  std::vector<std::string> Glob(const std::string& absolute_pattern, bool* cut = nullptr,
                                GlobOrder order = GlobOrder::kByPath) const;

 private:
  /// The virtual (installed-system) path of a host path, if it lies in a layer.
  std::optional<std::string> VirtualPath(const std::string& host_path) const;
  /// `host_path` below the longest layer it starts with, as written ("..", "." kept), or
  /// nothing when it starts with none.
  std::optional<std::string> TextBelowLayer(const std::string& host_path) const;
  friend class PathFollower;
  /// Resolves `todo`'s components from `cur` (a resolved path of the installed system),
  /// `links` links already followed (PathFollower, rooted_fs.cc).
  std::optional<Resolved> Follow(std::string cur, std::deque<std::string> todo, bool in_layers, int links,
                                 std::string* why) const;

  /// Whether layer `layer` (of layers_) shows `virtual_path` when it exists there.
  bool Shows(size_t layer, const std::string& virtual_path) const {
    return layer >= hidden_.size() || !hidden_[layer] || !hidden_[layer]->count(virtual_path);
  }

  std::vector<std::string> layers_;  ///< canonical, no trailing slash; "" = the host's "/"
  /// hidden_[i]: the paths layer i hides; shared, so that copies of the view stay cheap.
  std::vector<std::shared_ptr<const std::unordered_set<std::string>>> hidden_;
  void CountLookup() const { lookups_->fetch_add(1, std::memory_order_relaxed); }

  /// Each link's outcome in this view (its layers, what they hide), shared by its copies;
  /// each directory's too (an outcome of no links).
  std::shared_ptr<LinkMemo> link_memo_ = std::make_shared<LinkMemo>();
  std::shared_ptr<std::atomic<uint64_t>> lookups_ = std::make_shared<std::atomic<uint64_t>>(0);
};

}  // namespace rocm_audit
