#include "audit/gpu/decode_memory.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "audit/support/spill_file.h"

namespace rocm_audit {
namespace {

constexpr size_t kHugePage = size_t(2) << 20;

// A window is written once from end to end: in 2 MiB pages (where the kernel allows
// transparent huge pages on request, as Debian's does) that is one fault per 2 MiB
// instead of 512, and the faults were most of the run's system time.
char* MapBlock(size_t size) {
  void* p = mmap(nullptr, size + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  auto start = reinterpret_cast<uintptr_t>(p);
  uintptr_t aligned = (start + kHugePage - 1) & ~(kHugePage - 1);
  if (aligned > start) munmap(p, aligned - start);
  size_t tail = (start + size + kHugePage) - (aligned + size);
  if (tail) munmap(reinterpret_cast<void*>(aligned + size), tail);
  madvise(reinterpret_cast<void*>(aligned), size, MADV_HUGEPAGE);
  return reinterpret_cast<char*>(aligned);
}

char* GrowBlock(char* data, size_t size, size_t new_size) {
  void* p = mremap(data, size, new_size, MREMAP_MAYMOVE);
  if (p == MAP_FAILED) return nullptr;
  madvise(p, new_size, MADV_HUGEPAGE);
  return static_cast<char*>(p);
}

// Reserves the file's blocks first: a write to a shared mapping whose page has no disk
// block behind it would raise SIGBUS on a full disk; fallocate fails here instead.
char* MapSpilled(int fd, size_t size) {
  if (fallocate(fd, 0, 0, static_cast<off_t>(size)) != 0) return nullptr;
  void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) return nullptr;
  madvise(p, size, MADV_POPULATE_WRITE);
  return static_cast<char*>(p);
}

char* GrowSpilled(int fd, char* data, size_t size, size_t new_size) {
  if (fallocate(fd, 0, 0, static_cast<off_t>(new_size)) != 0) return nullptr;
  void* p = mremap(data, size, new_size, MREMAP_MAYMOVE);
  if (p == MAP_FAILED) return nullptr;
  madvise(static_cast<char*>(p) + size, new_size - size, MADV_POPULATE_WRITE);
  return static_cast<char*>(p);
}

}  // namespace

static thread_local DecodeMemory::DeferInsteadOfWaiting* t_defer = nullptr;

DecodeMemory::DeferInsteadOfWaiting::DeferInsteadOfWaiting() : outer_(t_defer) { t_defer = this; }
DecodeMemory::DeferInsteadOfWaiting::~DeferInsteadOfWaiting() { t_defer = outer_; }

DecodeMemory::DecodeMemory(size_t budget, std::vector<std::string> spill_dirs)
    : budget_(budget), spill_dirs_(std::move(spill_dirs)) {}

DecodeMemory::~DecodeMemory() {
  for (Block& b : blocks_) {
    munmap(b.data, b.size);
    if (b.fd >= 0) close(b.fd);
  }
}

char* DecodeMemory::Map(Block* grow, size_t size, bool spill, int* fd) {
  if (!spill) {
    *fd = -1;
    return grow ? GrowBlock(grow->data, grow->size, size) : MapBlock(size);
  }
  if (grow) {
    *fd = grow->fd;
    return GrowSpilled(grow->fd, grow->data, grow->size, size);
  }
  *fd = OpenSpillFile(spill_dirs_);
  if (*fd < 0) return nullptr;
  char* data = MapSpilled(*fd, size);
  if (!data) {
    close(*fd);
    *fd = -1;
  }
  return data;
}

void* DecodeMemory::Allocate(size_t size) {
  if (size < kLargeBlock) return std::malloc(size);
  size = (size + kHugePage - 1) & ~(kHugePage - 1);
  std::unique_lock lock(mutex_);
  bool spill_failed = false;
  for (;;) {
    // A kept block that is large enough is reused as it is: its pages are already there.
    Block* best = nullptr;
    for (Block& b : blocks_)
      if (!b.in_use && b.size >= size && (!best || b.size < best->size)) best = &b;
    if (best) {
      best->in_use = true;
      return best->data;
    }
    if (Fits(size)) {
      // The largest kept block (of the same kind) grows in place of a new one: the pages it
      // has keep their contents, so only the added part is faulted in (and cleared) by the
      // kernel. Other kept blocks go first when the budget needs their room.
      bool spill = !spill_failed && !spill_dirs_.empty() && anon_held_ + size > kAnonWindows;
      Block* grow = LargestKept(spill);
      size_t extra = size - (grow ? grow->size : 0);
      if (held_ + extra > limit()) {
        const char* keep = grow ? grow->data : nullptr;
        ReleaseKept(extra, keep);
        grow = LargestKept(spill);
        extra = size - (grow ? grow->size : 0);
      }
      // The block is reserved (in use, counted at its new size) under the lock and mapped
      // without it: a spilled window is reserved on disk and prefaulted, tens of
      // milliseconds for 128 MiB, while the other workers' blocks come and go.
      Block old = grow ? *grow : Block{};
      uint64_t ticket = ++tickets_;
      if (grow)
        *grow = {old.data, size, true, old.fd, ticket};
      else
        blocks_.push_back({nullptr, size, true, -1, ticket});
      Account(spill, extra, +1);
      // Raised now, so that limit() allows what is in use; were the mapping to fail, the
      // system would be out of memory and the run failing anyway.
      largest_ = std::max(largest_, size);
      lock.unlock();
      int fd = -1;
      char* data = Map(grow ? &old : nullptr, size, spill, &fd);
      lock.lock();
      auto it = std::find_if(blocks_.begin(), blocks_.end(),
                             [ticket](const Block& b) { return b.ticket == ticket; });
      if (!data) {
        // A failed grow leaves the block as it was (mremap and fallocate change nothing
        // when they fail); a failed new block was never there.
        Account(spill, extra, -1);
        if (grow)
          *it = old;
        else
          blocks_.erase(it);
        released_.notify_all();
        if (spill) {
          spill_failed = true;  // no spill file, or no room on its disk: anonymous after all
          continue;             // from the top: the lock was let go
        }
        return nullptr;  // zstd reports "allocation error"
      }
      *it = {data, size, true, fd, 0};
      peak_ = std::max(peak_, held_);
      peak_anon_ = std::max(peak_anon_, anon_held_);
      return data;
    }
    if (t_defer) {
      t_defer->deferred_ = true;
      t_defer->wanted_ = size;
      return nullptr;  // the reader fails this bundle; the caller drops it and comes back
    }
    released_.wait(lock);
  }
}

void DecodeMemory::Account(bool spilled, size_t bytes, int sign) {
  if (sign > 0) {
    held_ += bytes;
    if (!spilled) anon_held_ += bytes;
  } else {
    held_ -= bytes;
    if (!spilled) anon_held_ -= bytes;
  }
}

void DecodeMemory::Free(void* p) {
  if (!p) return;
  std::unique_lock lock(mutex_);
  auto it = std::find_if(blocks_.begin(), blocks_.end(), [p](const Block& b) { return b.data == p; });
  if (it == blocks_.end()) {
    lock.unlock();
    std::free(p);
    return;
  }
  it->in_use = false;
  if (held_ > limit()) ReleaseKept(0);
  lock.unlock();
  released_.notify_all();
}

void DecodeMemory::ReleaseUnused() {
  std::lock_guard lock(mutex_);
  for (size_t i = blocks_.size(); i-- > 0;)
    if (!blocks_[i].in_use) Drop(i);
}

size_t DecodeMemory::peak_large() const {
  std::lock_guard lock(mutex_);
  return peak_;
}

size_t DecodeMemory::peak_anon() const {
  std::lock_guard lock(mutex_);
  return peak_anon_;
}

bool DecodeMemory::Spilled(const void* p) const {
  std::lock_guard lock(mutex_);
  for (const Block& b : blocks_)
    if (b.data == p) return b.fd >= 0;
  return false;
}

bool DecodeMemory::WouldGive(size_t size) const {
  if (size < kLargeBlock) return true;
  size = (size + kHugePage - 1) & ~(kHugePage - 1);
  std::lock_guard lock(mutex_);
  // Allocate's rule. A kept block that would serve it fits too: what is held, kept blocks
  // included, never exceeds the limit.
  return Fits(size);
}

// The one rule for giving a block that no kept block serves: it fits beside the blocks in
// use, kept ones making room; or nothing is in use, and it may exceed the budget.
bool DecodeMemory::Fits(size_t size) const {
  size_t in_use = 0;
  for (const Block& b : blocks_) in_use += b.in_use ? b.size : 0;
  return in_use == 0 || in_use + size <= limit();
}

DecodeMemory::Block* DecodeMemory::LargestKept(bool spilled) {
  Block* largest = nullptr;
  for (Block& b : blocks_)
    if (!b.in_use && (b.fd >= 0) == spilled && (!largest || b.size > largest->size)) largest = &b;
  return largest;
}

void DecodeMemory::ReleaseKept(size_t wanted, const char* except) {
  for (size_t i = blocks_.size(); i-- > 0 && held_ + wanted > limit();)
    if (!blocks_[i].in_use && blocks_[i].data != except) Drop(i);
}

void DecodeMemory::Drop(size_t i) {
  munmap(blocks_[i].data, blocks_[i].size);
  held_ -= blocks_[i].size;
  if (blocks_[i].fd >= 0)
    close(blocks_[i].fd);
  else
    anon_held_ -= blocks_[i].size;
  blocks_.erase(blocks_.begin() + static_cast<std::ptrdiff_t>(i));
}

}  // namespace rocm_audit
