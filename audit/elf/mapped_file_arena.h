// Read-only mappings of many files at consecutive places of one reserved region, unmapped
// together. The base scan maps thousands of ELF files to read their dynamic sections. Every
// munmap of a touched mapping flushes the TLB of each core running a thread of the process:
// an inter-processor interrupt per core, a VM exit under a hypervisor. A munmap per file cost
// the base scan more than opening and reading all of its files (Debian, 1,200 -dev packages:
// 4,400 munmaps, 0.3 s of 0.78 s CPU); a munmap per region costs one flush per thousand files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace rocm_audit {

class MappedFileArena {
 public:
  MappedFileArena() = default;
  MappedFileArena(const MappedFileArena&) = delete;
  MappedFileArena& operator=(const MappedFileArena&) = delete;
  ~MappedFileArena() { Release(); }

  /// The first `size` bytes of the regular file `fd`, mapped read-only until the next Map()
  /// or Release(); none when they are not mapped here (empty, larger than a region, or mmap
  /// refused): the caller maps the file on its own.
  std::optional<std::string_view> Map(int fd, uint64_t size);
  /// Unmaps every file mapped so far.
  void Release();

 private:
  bool Reserve();

  char* region_ = nullptr;
  size_t used_ = 0;   ///< bytes of the region holding mappings, whole pages
  size_t files_ = 0;  ///< mappings in the region
};

}  // namespace rocm_audit
