// The memory a run's workers decompress bundles in: one budget for all of them, so the
// peak does not grow with the number of workers or of files (docs/design.md §F2).
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <vector>

namespace rocm_audit {

/// A zstd frame is decoded through a window as large as the frame declares: up to 128 MiB,
/// and the whole bundle for the single-segment frames LLVM writes. A window per worker
/// would make the peak grow with the cores. Here the large blocks of all workers together
/// stay within one budget: a worker whose window does not fit waits until another worker
/// releases one, and a window larger than the whole budget is given only while no other
/// large block is in use. The peak is therefore max(budget, largest window) plus small
/// blocks, for any tree and any -j; and since that peak is paid once a window larger than
/// the budget has been decoded, windows may share that much from then on.
///
/// Released blocks are kept, within the budget, for the next frame: a fresh mapping per
/// bundle faulted in every page of its window again, which cost more system time than the
/// decoding itself (840 MB of page faults over sid's 717 compressed bundles).
class DecodeMemory {
 public:
  /// Blocks at least this large are windows and count against the budget; smaller ones
  /// (the decoder's own state) are never waited for, so two workers cannot wait on each
  /// other while each holds one.
  static constexpr size_t kLargeBlock = size_t(1) << 20;

  explicit DecodeMemory(size_t budget) : budget_(budget) {}
  ~DecodeMemory();
  DecodeMemory(const DecodeMemory&) = delete;
  DecodeMemory& operator=(const DecodeMemory&) = delete;

  void* Allocate(size_t size);
  void Free(void* p);

  size_t budget() const { return budget_; }
  size_t peak_large() const;  ///< the most bytes of large blocks held at once (used or kept)

 private:
  struct Block {
    char* data = nullptr;
    size_t size = 0;
    bool in_use = false;
  };
  size_t limit() const { return std::max(budget_, largest_); }
  bool LargeInUse() const;
  // Drops kept blocks, but `except`, until `wanted` more bytes fit the budget.
  void ReleaseKept(size_t wanted, const char* except = nullptr);
  void Drop(size_t i);

  const size_t budget_;
  mutable std::mutex mutex_;
  std::condition_variable released_;
  std::vector<Block> blocks_;  // large blocks only: a handful
  size_t held_ = 0;            // bytes of blocks_, used or kept
  size_t largest_ = 0;         // the largest block given
  size_t peak_ = 0;
};

}  // namespace rocm_audit
