// A valid ELF file too large to map (a 100 GiB library under a 4 GiB address-space limit:
// one huge section, a hole) read by the ranges the audit reads, never whole: the bytes from
// the start of the file to the end of the last table ld.so or the audit reads there, then
// copies of the section header table and the section names, which the linkers put at the
// end of the file, with the header's offsets to them pointed at the copies.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace llvm {
class MemoryBuffer;
}

namespace rocm_audit {

/// The most bytes of the start of a file the image holds: the tables of the largest real
/// libraries (libLLVM's .dynsym, .dynstr, relocations) take a few hundred MB.
inline constexpr uint64_t kMaxElfHeadBytes = uint64_t(1) << 30;

/// The image of the ELF file open at `fd` (`size` bytes), or nullptr with `error` set when
/// the tables lie past kMaxElfHeadBytes or the headers cannot be read.
std::shared_ptr<llvm::MemoryBuffer> ReadElfHeadImage(int fd, uint64_t size, const std::string& path,
                                                     std::string* error);

}  // namespace rocm_audit
