// What the library searches of one run learn about the filesystem, shared by every closure
// of the run. The search of a name depends on the requesting object and the loader's
// configuration, never on the main object that started the closure; what it learns at each
// step does not even depend on the requester: whether a directory resolves, and what a
// directory holds under one name. Those answers are kept here, once per run, so that N
// audited files whose closures overlap probe each directory and each name once, not N
// times. The files do not change while the audit runs.
#pragma once

#include <array>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "audit/elf/elf_reader.h"
#include "audit/fs/rooted_fs.h"

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
  enum class State { kMissing, kSymlinkLoop, kSpecial, kCannotOpen, kNotLoadable, kElf } state;
  std::string real;    ///< the host file, symlinks resolved
  std::string detail;  ///< kSpecial: its kind; kCannotOpen, kNotLoadable: the error
  ElfIdentity id;      ///< kElf
  FileId file;         ///< kElf
};

/// A search directory, resolved in the root.
struct ProbedDirectory {
  std::optional<RootedFs::Resolved> resolved;
  std::string why;  ///< when it does not resolve
};

/// Thread-safe. One memo belongs to one RootedFs, once its layers and hidden files are
/// final: a path's answer is that filesystem's. An answer, once kept, is never replaced,
/// so a reference to it stays valid for the memo's life.
class SearchMemo {
 public:
  /// The candidate kept under `key` (directory + '\0' + name), else null.
  const ProbedCandidate* FindCandidate(std::string_view key) const;
  /// Keeps `probed` under `key` unless another thread kept one first; returns the one kept.
  const ProbedCandidate& KeepCandidate(std::string key, ProbedCandidate probed);
  const ProbedDirectory* FindDirectory(std::string_view dir) const;
  const ProbedDirectory& KeepDirectory(std::string dir, ProbedDirectory probed);

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  template <typename T>
  using Map = std::unordered_map<std::string, T, Hash, std::equal_to<>>;
  // Lookups from every worker: one lock per shard, chosen by the key's hash, keeps two
  // workers from waiting on each other for different keys.
  struct Shard {
    mutable std::mutex mutex;
    Map<ProbedCandidate> candidates;
    Map<ProbedDirectory> directories;
  };
  static constexpr size_t kShards = 64;
  Shard& ShardOf(std::string_view key) const { return shards_[Hash{}(key) % kShards]; }

  mutable std::array<Shard, kShards> shards_;
};

}  // namespace rocm_audit
