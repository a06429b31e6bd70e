#include "audit/elf/resident_pages.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <llvm/Support/MemoryBuffer.h>

#include <atomic>
#include <vector>

namespace rocm_audit {
namespace {

uintptr_t PageSize() {
  static const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  return page;
}

}  // namespace

uint64_t ReleaseResidentPages(const llvm::MemoryBuffer& buffer) {
  // Only LLVM's file mappings: a buffer it copied (a small file, a pipe) or one that views
  // another's memory is anonymous memory, which MADV_DONTNEED would zero.
  if (buffer.getBufferKind() != llvm::MemoryBuffer::MemoryBuffer_MMap) return 0;
  const uintptr_t page = PageSize();
  const uintptr_t start = reinterpret_cast<uintptr_t>(buffer.getBufferStart());
  const uintptr_t end = start + buffer.getBufferSize();
  // LLVM maps from the page holding the buffer's offset, and the kernel maps the whole page
  // holding its last byte: the pages around the buffer are its mapping's.
  const uintptr_t first = start / page * page, last = (end + page - 1) / page * page;
  if (last <= first) return 0;
  if (madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED) != 0) return 0;
  return last - first;
}

uint64_t ReleaseResidentRange(const llvm::MemoryBuffer& buffer, std::string_view part) {
  if (buffer.getBufferKind() != llvm::MemoryBuffer::MemoryBuffer_MMap) return 0;
  const uintptr_t start = reinterpret_cast<uintptr_t>(buffer.getBufferStart());
  const uintptr_t from = reinterpret_cast<uintptr_t>(part.data());
  if (from < start || part.size() > buffer.getBufferSize() - (from - start)) return 0;  // not its bytes
  const uintptr_t page = PageSize();
  const uintptr_t first = (from + page - 1) / page * page, last = (from + part.size()) / page * page;
  if (last <= first) return 0;
  if (madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED) != 0) return 0;
  return last - first;
}

uint64_t ReleaseResidentPagesUnlessSmall(const llvm::MemoryBuffer& buffer) {
  // Counted at every call that keeps the pages: a caller that is told they were kept
  // (ElfModel::pages_kept) does not ask again, so a mapping counts once, at its whole size,
  // which bounds its pages whatever touches them later.
  static std::atomic<uint64_t> kept{0};
  const uint64_t size = buffer.getBufferSize();
  if (buffer.getBufferKind() == llvm::MemoryBuffer::MemoryBuffer_MMap && size < kSmallMappingBytes) {
    const uint64_t page = PageSize(), whole = (size + 2 * page - 1) / page * page;
    uint64_t before = kept.load(std::memory_order_relaxed);
    while (before + whole <= kKeptSmallMappingBytes)
      if (kept.compare_exchange_weak(before, before + whole, std::memory_order_relaxed)) return 0;
  }
  return ReleaseResidentPages(buffer);
}

uint64_t ResidentBytes(std::string_view bytes) {
  if (bytes.empty()) return 0;
  const uintptr_t page = PageSize();
  const uintptr_t first = reinterpret_cast<uintptr_t>(bytes.data()) / page;
  const uintptr_t last = (reinterpret_cast<uintptr_t>(bytes.data()) + bytes.size() - 1) / page;
  const int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  // One 64-bit entry per page; bit 63: present in RAM (readable without privileges).
  std::vector<uint64_t> entries(last - first + 1);
  const size_t want = entries.size() * sizeof(uint64_t);
  const ssize_t got = pread(fd, entries.data(), want, static_cast<off_t>(first * sizeof(uint64_t)));
  close(fd);
  if (got != static_cast<ssize_t>(want)) return 0;
  uint64_t present = 0;
  for (uint64_t e : entries) present += (e >> 63) & 1;
  return present * page;
}

}  // namespace rocm_audit
