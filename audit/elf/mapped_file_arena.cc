#include "audit/elf/mapped_file_arena.h"

#include <sys/mman.h>
#include <unistd.h>

namespace rocm_audit {
namespace {

// Address space only (PROT_NONE, MAP_NORESERVE): no memory is committed for it. Files larger
// than a region (1 in 10,000 ELF files of a Debian /usr) are mapped on their own.
constexpr size_t kRegionBytes = size_t(1) << 30;
// Each mapping is a VMA of its own; a process may hold 65,530 (vm.max_map_count).
constexpr size_t kFilesPerRegion = 1024;

size_t PageSize() {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return page;
}

}  // namespace

bool MappedFileArena::Reserve() {
  void* at = mmap(nullptr, kRegionBytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (at == MAP_FAILED) return false;
  region_ = static_cast<char*>(at);
  used_ = files_ = 0;
  return true;
}

std::optional<std::string_view> MappedFileArena::Map(int fd, uint64_t size) {
  const size_t page = PageSize();
  if (size == 0 || size > kRegionBytes - page) return std::nullopt;
  const size_t bytes = (static_cast<size_t>(size) + page - 1) / page * page;
  if (region_ && (files_ == kFilesPerRegion || bytes > kRegionBytes - used_)) Release();
  if (!region_ && !Reserve()) return std::nullopt;
  char* at = region_ + used_;
  if (mmap(at, static_cast<size_t>(size), PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0) == MAP_FAILED) {
    // A MAP_FIXED that fails may have unmapped the reservation there (mmap(2)), and another
    // thread may since have been given that range: only the files mapped before it are
    // known to be this region's, and the rest of the reservation is left to the process.
    if (used_ > 0) munmap(region_, used_);
    region_ = nullptr;
    return std::nullopt;
  }
  used_ += bytes;
  ++files_;
  return std::string_view(at, static_cast<size_t>(size));
}

void MappedFileArena::Release() {
  if (region_) munmap(region_, kRegionBytes);
  region_ = nullptr;
}

}  // namespace rocm_audit
