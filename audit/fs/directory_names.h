// The names one directory holds, read once with getdents (readdir) and kept as hashes: what
// a search of many names in one directory asks, answered without a system call per name.
// ld.so's open_path opens `dir/name` for every name in every directory (an ENOENT each);
// ldconfig's cache, which ld.so reads instead for the directories it covers, is such a
// listing. A hash that is absent says the name is absent; one that is present says only
// that the name may be there (two names can share a hash), and the caller then looks at
// the entry itself, as it would without the listing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rocm_audit {

/// The most entries one listing keeps (8 bytes each): past it, the directory is not
/// indexed and each name is looked at on its own.
inline constexpr size_t kMaxListedEntries = 1 << 20;

class DirectoryNames {
 public:
  /// The names of the directories `host_dirs` together (the layers of one directory of a
  /// --root overlay). A directory that does not exist, or is not a directory (ENOENT,
  /// ENOTDIR), holds nothing. nullopt when one cannot be listed whole (no permission, any
  /// other error), or when they hold more than `max_entries` entries.
  static std::optional<DirectoryNames> List(const std::vector<std::string>& host_dirs,
                                            size_t max_entries = kMaxListedEntries);

  /// False when no entry is named `name`; true when one may be.
  bool MayHold(std::string_view name) const;
  /// The entries listed ("." and ".." are not kept).
  size_t size() const { return hashes_.size(); }

 private:
  std::vector<uint64_t> hashes_;  ///< sorted
};

}  // namespace rocm_audit
