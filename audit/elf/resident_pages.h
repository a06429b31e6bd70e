// The pages of a mapped file that this process holds in its page tables. A read-only file
// mapping counts toward the process's RSS for every page it touched, until it is unmapped:
// the loader checks touch each library's symbol, string, hash and relocation tables (3.5 MB
// of .dynstr and 6.6 MB of .rela.dyn in one LLVM), and a run over a few hundred libraries
// kept them all, 58 MB of a peak RSS of 80 MB. Dropping them keeps the page cache's copy:
// a later read faults the page back in without reading the disk.
#pragma once

#include <cstdint>
#include <string_view>

namespace llvm {
class MemoryBuffer;
}

namespace rocm_audit {

/// Lets go of the process's hold on the pages of `buffer` when it is a file mapping
/// (madvise MADV_DONTNEED: a private read-only file mapping reads the file again on the next
/// touch); nothing for a buffer in allocated memory, whose bytes would be lost. Returns the
/// bytes of the range given back, the pages holding the buffer.
uint64_t ReleaseResidentPages(const llvm::MemoryBuffer& buffer);

/// The same for the pages wholly inside `part`, a range of `buffer`'s bytes (a fat binary's
/// bundle once read): the pages it shares with the bytes around it stay. Returns the bytes
/// given back.
uint64_t ReleaseResidentRange(const llvm::MemoryBuffer& buffer, std::string_view part);

/// A small mapping's pages stay while all the small mappings kept so far in this process add up
/// to less than kKeptSmallMappingBytes; any other mapping's go, as ReleaseResidentPages. Each
/// madvise of a thread's mapping flushes the TLB of every core the process runs on (an
/// inter-processor interrupt, a VM exit under a hypervisor): one per file, twice per file,
/// cost the loader checks over sid-root's 328 files more CPU than all their stat calls, and 251
/// of those files are under 64 KB (4 MB in all); the 296 under 1 MB are 17 MB with the pages
/// around them, which the budget holds. Returns the bytes given back (0 when kept).
uint64_t ReleaseResidentPagesUnlessSmall(const llvm::MemoryBuffer& buffer);
inline constexpr uint64_t kSmallMappingBytes = 1 << 20;
inline constexpr uint64_t kKeptSmallMappingBytes = 24 << 20;

/// The bytes of `bytes` in pages this process has mapped in (from /proc/self/pagemap), for
/// tests and measurements; 0 when the page map cannot be read.
uint64_t ResidentBytes(std::string_view bytes);

}  // namespace rocm_audit
