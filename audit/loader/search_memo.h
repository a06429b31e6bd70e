// What the library searches of one run learn about the filesystem, shared by every closure
// of the run. The search of a name depends on the requesting object, the DT_RPATHs of the
// objects that loaded it and the main object's interpreter (closure.h's LoaderMemo keeps
// whole searches); what it learns at each step depends on none of them: whether a
// directory resolves, which names it holds (listed once, as ld.so.cache lists them), and
// what it holds under one name. Those answers are kept here, once per run,
// so that N audited files whose closures overlap probe each directory and each name once, not N times. The
// files do not change while the audit runs.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "audit/elf/elf_reader.h"
#include "audit/fs/directory_names.h"
#include "audit/fs/rooted_fs.h"
#include "audit/fs/shared_answers.h"

namespace rocm_audit {

/// A file as ld.so tells one object from another (_dl_file_id_match_p): its device and
/// inode, so that a hard link or a bind-mounted copy is the object already loaded.
struct FileId {
  uint64_t dev = 0, ino = 0;
  bool operator==(const FileId&) const = default;
  bool known() const { return dev != 0 || ino != 0; }
};

/// What a directory holds under one name, as far as a library search looks.
struct ProbedCandidate {
  /// kKernelView: in /proc or /sys (or reached through a link in /proc), never opened.
  enum class State { kMissing, kSymlinkLoop, kSpecial, kCannotOpen, kNotLoadable, kKernelView, kElf } state;
  std::string real;    ///< the host file, symlinks resolved
  std::string detail;  ///< kSpecial: its kind; kKernelView: which; kCannotOpen, kNotLoadable: the error
  ElfIdentity id;      ///< kElf
  FileId file;         ///< kElf
};

/// A search directory's names, listed once it has been asked about kAskedBeforeListing
/// names: listing a large directory (Debian's /usr/lib/x86_64-linux-gnu holds 5,000
/// entries, a fifth of a one-file audit's time) costs more than the few names one file
/// asks, and less than the hundreds a tree asks. Before that each name is looked at on its
/// own (one lstat(2)), as ld.so's open_path opens each. Thread-safe.
class DirectoryListing {
 public:
  static constexpr uint32_t kAskedBeforeListing = 8;
  /// `hosts`: the host directories that hold its entries, one per layer.
  explicit DirectoryListing(std::vector<std::string> hosts) : hosts_(std::move(hosts)) {}
  /// Counts one name asked; the listing from the kAskedBeforeListing-th on, null before and
  /// when it cannot be listed (DirectoryNames::List).
  const DirectoryNames* Ask() {
    if (asked_.fetch_add(1, std::memory_order_relaxed) < kAskedBeforeListing) return nullptr;
    std::call_once(once_, [this] { names_ = DirectoryNames::List(hosts_); });
    return names_ ? &*names_ : nullptr;
  }
  /// Whether it has been listed, for tests.
  bool listed() const { return asked_.load(std::memory_order_relaxed) > kAskedBeforeListing; }

 private:
  const std::vector<std::string> hosts_;
  std::atomic<uint32_t> asked_{0};
  std::once_flag once_;
  std::optional<DirectoryNames> names_;
};

/// A search directory, resolved in the root, and what it holds for every name at once.
struct ProbedDirectory {
  std::optional<RootedFs::Resolved> resolved;
  std::string why;  ///< when it does not resolve
  /// What a name of one component is here when the directory alone decides it (it does not
  /// resolve); else nothing.
  std::optional<ProbedCandidate> every_name;
  /// Its entries, listed at most once for the run (DirectoryListing); null when a name's
  /// candidate is not decided by the directory's entries alone (in /proc or /sys;
  /// LibrarySearch::ResolveDirectory).
  std::shared_ptr<DirectoryListing> listing;
  /// The longest host path of the directory in any layer: a name whose host path reaches
  /// PATH_MAX fails with ENAMETOOLONG, not ENOENT, and is looked at on its own.
  size_t longest_host_path = 0;
};

/// One memo belongs to one RootedFs, once its layers and hidden files are final: a path's
/// answer is that filesystem's.
struct SearchMemo {
  SharedAnswers<ProbedCandidate> candidates;  ///< by directory + '\0' + name; only names a listing may hold
  SharedAnswers<ProbedDirectory> directories;
  /// Each directory's listing, by where it resolves ('L' in the layers, 'H' on the host, then
  /// its path): listed once however many search entries name it.
  SharedAnswers<std::shared_ptr<DirectoryListing>> listings;
};

}  // namespace rocm_audit
