// The memory a run's workers decompress bundles in: one budget for all of them, so the
// peak does not grow with the number of workers or of files (docs/design.md §F2).
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
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
/// bundle would fault in every page of its window again, at a cost in system time of the
/// order of the decoding itself.
///
/// Windows beyond kAnonWindows of anonymous memory are spilled: mapped from an unnamed file
/// (O_TMPFILE) in a spill directory, its blocks reserved with fallocate so that a full disk
/// fails the allocation instead of a later write. Such pages are the page cache's: the kernel
/// may write them out and reclaim them under pressure, which it cannot do with anonymous
/// memory on a builder without swap. hipBLASLt's largest bundle alone needs a 128 MiB window.
/// A directory on tmpfs gains nothing (its pages are memory) and is not used.
class DecodeMemory {
 public:
  /// Blocks at least this large are windows and count against the budget; smaller ones
  /// (the decoder's own state) are never waited for, so two workers cannot wait on each
  /// other while each holds one.
  static constexpr size_t kLargeBlock = size_t(1) << 20;
  /// Large blocks in anonymous memory, all workers together, before windows are spilled.
  static constexpr size_t kAnonWindows = size_t(64) << 20;

  /// `spill_dirs`: where windows past kAnonWindows go, the first that gives a spill file
  /// (none: never spilled, all anonymous).
  explicit DecodeMemory(size_t budget, std::vector<std::string> spill_dirs = {});
  ~DecodeMemory();
  DecodeMemory(const DecodeMemory&) = delete;
  DecodeMemory& operator=(const DecodeMemory&) = delete;

  void* Allocate(size_t size);
  void Free(void* p);

  /// While one lives on a thread, an allocation of that thread that would wait for another
  /// worker's window fails instead, and `deferred()` says so: the caller drops what it was
  /// reading and takes other work, and reads this again later without one. A worker then
  /// waits only when nothing else is left to do.
  class DeferInsteadOfWaiting {
   public:
    DeferInsteadOfWaiting();
    ~DeferInsteadOfWaiting();
    DeferInsteadOfWaiting(const DeferInsteadOfWaiting&) = delete;
    DeferInsteadOfWaiting& operator=(const DeferInsteadOfWaiting&) = delete;
    bool deferred() const { return deferred_; }
    size_t wanted() const { return wanted_; }  ///< the block that would have been waited for

   private:
    friend class DecodeMemory;
    DeferInsteadOfWaiting* outer_;
    bool deferred_ = false;
    size_t wanted_ = 0;
  };

  /// Whether a block of `size` bytes would be given now without waiting (as far as can be
  /// told: another worker may take the room first).
  bool WouldGive(size_t size) const;

  /// Unmaps the kept blocks: when a phase of the run will decode little or nothing more,
  /// they would otherwise stay resident under everything the later phases allocate.
  void ReleaseUnused();

  size_t budget() const { return budget_; }
  size_t peak_large() const;  ///< the most bytes of large blocks held at once (used or kept)
  size_t peak_anon() const;   ///< the same, of those in anonymous memory
  /// Whether `p`, a block given by Allocate, lives in a spill file.
  bool Spilled(const void* p) const;

 private:
  struct Block {
    char* data = nullptr;
    size_t size = 0;
    bool in_use = false;
    int fd = -1;          // its spill file; -1: anonymous
    uint64_t ticket = 0;  // non-zero while Allocate maps it without the lock
  };
  size_t limit() const { return std::max(budget_, largest_); }
  bool Fits(size_t size) const;      // whether a block no kept one serves may be given now
  Block* LargestKept(bool spilled);  // of that kind
  // A new block, or `grow` grown to `size`, spilled or not; nullptr if it cannot be mapped.
  char* Map(Block* grow, size_t size, bool spill, int* fd);
  // Drops kept blocks, but `except`, until `wanted` more bytes fit the budget.
  void ReleaseKept(size_t wanted, const char* except = nullptr);
  void Drop(size_t i);
  void Account(bool spilled, size_t bytes, int sign);  // held_ (and anon_held_) +/- bytes

  const size_t budget_;
  mutable std::mutex mutex_;
  std::condition_variable released_;
  std::vector<Block> blocks_;  // large blocks only: a handful
  size_t held_ = 0;            // bytes of blocks_, used or kept
  size_t anon_held_ = 0;       // of those, in anonymous memory
  size_t largest_ = 0;         // the largest block given
  size_t peak_ = 0;
  size_t peak_anon_ = 0;
  uint64_t tickets_ = 0;
  const std::vector<std::string> spill_dirs_;
};

}  // namespace rocm_audit
