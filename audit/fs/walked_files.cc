#include "audit/fs/walked_files.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace rocm_audit {
namespace {

// Large enough that a block holds hundreds of paths, small enough that the last one's
// unused part does not matter.
constexpr size_t kBlockSize = 64 * 1024;

uint32_t Size32(std::string_view s) {
  // PATH_MAX is 4,096: a longer path cannot have come from the file system.
  if (s.size() > UINT32_MAX) throw std::length_error("path longer than 4 GiB");
  return static_cast<uint32_t>(s.size());
}

}  // namespace

WalkedFiles& WalkedFiles::operator=(const WalkedFiles& other) {
  if (this == &other) return *this;
  *this = WalkedFiles();
  entries_.reserve(other.size());
  for (size_t i = 0; i < other.size(); ++i) AddFrom(other, i);
  return *this;
}

WalkedFiles::WalkedFiles(WalkedFiles&& other) noexcept { *this = std::move(other); }

WalkedFiles& WalkedFiles::operator=(WalkedFiles&& other) noexcept {
  if (this == &other) return *this;
  entries_ = std::move(other.entries_);
  blocks_ = std::move(other.blocks_);
  prefixes_ = std::move(other.prefixes_);
  // The moved-from list must not write into blocks it no longer owns.
  block_end_ = std::exchange(other.block_end_, nullptr);
  block_free_ = std::exchange(other.block_free_, 0);
  other.entries_.clear();
  other.prefixes_.clear();
  return *this;
}

const char* WalkedFiles::Store(std::string_view s) {
  if (s.size() > block_free_) {
    size_t size = std::max(kBlockSize, s.size());
    blocks_.push_back(std::make_unique_for_overwrite<char[]>(size));
    block_end_ = blocks_.back().get() + size;
    block_free_ = size;
  }
  char* at = block_end_ - block_free_;
  std::memcpy(at, s.data(), s.size());
  block_free_ -= s.size();
  return at;
}

uint32_t WalkedFiles::PrefixIndex(std::string_view prefix) {
  // A walk has one prefix per PATH argument, and lists each one's files together.
  for (size_t k = prefixes_.size(); k-- > 0;)
    if (prefixes_[k] == prefix) return static_cast<uint32_t>(k);
  prefixes_.emplace_back(prefix);
  return static_cast<uint32_t>(prefixes_.size() - 1);
}

void WalkedFiles::Add(std::string_view path, std::string_view real_path, std::string_view prefix,
                      FileKind kind, uint64_t size) {
  Entry e{};
  e.path = Store(path);
  e.path_size = Size32(path);
  if (real_path != path) {
    e.real_path = Store(real_path);
    e.real_path_size = Size32(real_path);
  }
  e.prefix = PrefixIndex(prefix);
  e.kind = kind;
  e.size = size;
  entries_.push_back(e);
}

void WalkedFiles::Move(size_t i, std::string_view path, std::string_view prefix) {
  Entry& e = entries_.at(i);
  std::string_view real = real_path(i);  // stays where it is: blocks are never freed or moved
  e.path = Store(path);
  e.path_size = Size32(path);
  e.real_path = real == path ? nullptr : real.data();
  e.real_path_size = real == path ? 0 : Size32(real);
  e.prefix = PrefixIndex(prefix);
}

std::string_view WalkedFiles::real_path(size_t i) const {
  const Entry& e = entries_[i];
  return e.real_path ? std::string_view(e.real_path, e.real_path_size) : path(i);
}

WalkedFile WalkedFiles::operator[](size_t i) const {
  return {std::string(path(i)), std::string(real_path(i)), std::string(prefix(i)), kind(i), file_size(i)};
}

WalkedFile WalkedFiles::at(size_t i) const {
  if (i >= entries_.size()) throw std::out_of_range("WalkedFiles::at");
  return (*this)[i];
}

}  // namespace rocm_audit
