// The walk's list of files, held from the walk until every file is read. It is kept
// compact because it is whole while the first bundles are decoded, when a run's memory
// peaks: a path is stored once in blocks of characters, a real path only where it is not the
// path, and a prefix (one of the PATH arguments) as an index: an Entry and the path's
// characters, where a WalkedFile holds three strings and, for a path too long for the
// string's own buffer, two heap blocks with the same characters. A WalkedFile is made of
// an entry when its file is read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "audit/fs/file_kind.h"

namespace rocm_audit {

struct WalkedFile {
  std::string path;       ///< as found: its directory is $ORIGIN
  std::string real_path;  ///< symlinks resolved
  std::string prefix;     ///< the PATH argument it was found under (the audited prefix)
  FileKind kind = FileKind::kOther;
  uint64_t size = 0;
};

class WalkedFiles {
 public:
  WalkedFiles() = default;
  WalkedFiles(const WalkedFiles& other) { *this = other; }
  WalkedFiles& operator=(const WalkedFiles& other);
  WalkedFiles(WalkedFiles&& other) noexcept;
  WalkedFiles& operator=(WalkedFiles&& other) noexcept;

  void Add(std::string_view path, std::string_view real_path, std::string_view prefix, FileKind kind,
           uint64_t size);
  /// Entry `i` of `from`, added to this list.
  void AddFrom(const WalkedFiles& from, size_t i) {
    Add(from.path(i), from.real_path(i), from.prefix(i), from.kind(i), from.file_size(i));
  }
  /// File `i` is listed at `path` under `prefix` instead; its real path stays.
  void Move(size_t i, std::string_view path, std::string_view prefix);

  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  std::string_view path(size_t i) const { return {entries_[i].path, entries_[i].path_size}; }
  std::string_view real_path(size_t i) const;
  std::string_view prefix(size_t i) const { return prefixes_[entries_[i].prefix]; }
  FileKind kind(size_t i) const { return entries_[i].kind; }
  uint64_t file_size(size_t i) const { return entries_[i].size; }
  /// A copy of entry `i`; at() checks `i`.
  WalkedFile operator[](size_t i) const;
  WalkedFile at(size_t i) const;
  /// The prefixes of the entries, each once, first seen first.
  const std::vector<std::string>& prefixes() const { return prefixes_; }

  class const_iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = WalkedFile;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = WalkedFile;
    const_iterator(const WalkedFiles* files, size_t i) : files_(files), i_(i) {}
    WalkedFile operator*() const { return (*files_)[i_]; }
    const_iterator& operator++() {
      ++i_;
      return *this;
    }
    bool operator==(const const_iterator& other) const { return i_ == other.i_; }

   private:
    const WalkedFiles* files_;
    size_t i_;
  };
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, entries_.size()}; }

 private:
  struct Entry {
    const char* path;
    const char* real_path;  ///< nullptr: the path
    uint64_t size;
    uint32_t path_size;
    uint32_t real_path_size;
    uint32_t prefix;  ///< in prefixes_
    FileKind kind;
  };
  const char* Store(std::string_view s);
  uint32_t PrefixIndex(std::string_view prefix);

  std::vector<Entry> entries_;
  std::vector<std::unique_ptr<char[]>> blocks_;  ///< never moved: entries point into them
  char* block_end_ = nullptr;                    ///< the end of the last block
  size_t block_free_ = 0;                        ///< characters left before it
  std::vector<std::string> prefixes_;
};

}  // namespace rocm_audit
