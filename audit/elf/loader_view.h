// The bytes ld.so sees of an ELF file: its PT_LOAD segments mapped at their addresses, and
// the dynamic table read there as elf/dl-load.c and elf/get-dynamic-info.h read it. The
// section headers play no part: ld.so never reads them.
#pragma once

#include <llvm/BinaryFormat/ELF.h>
#include <llvm/Object/ELF.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace rocm_audit {

/// What a PT_LOAD maps at an address: the file bytes from there to the end of the
/// segment's file part, then `zeros` bytes of zero fill up to p_memsz.
struct MappedBytes {
  bool mapped = false;     ///< some PT_LOAD covers the address
  std::string_view file;   ///< the file bytes, clipped to the end of the file
  uint64_t zeros = 0;      ///< zero fill after them (p_memsz beyond p_filesz)
  bool truncated = false;  ///< the segment's file part runs past the end of the file
};

/// The PT_LOAD segment covering `addr`, the last one when several do: ld.so maps them in
/// order with MAP_FIXED, so a later one replaces an earlier one's pages.
template <class ELFT>
MappedBytes MapAddress(llvm::ArrayRef<typename ELFT::Phdr> phdrs, std::string_view file, uint64_t addr) {
  MappedBytes out;
  for (const auto& ph : phdrs) {
    if (ph.p_type != llvm::ELF::PT_LOAD || addr < ph.p_vaddr || addr - ph.p_vaddr >= ph.p_memsz) continue;
    const uint64_t delta = addr - ph.p_vaddr;
    const uint64_t filesz = ph.p_filesz < ph.p_memsz ? uint64_t(ph.p_filesz) : uint64_t(ph.p_memsz);
    const uint64_t file_part = delta < filesz ? filesz - delta : 0;
    out = MappedBytes{true, {}, ph.p_memsz - delta - file_part, false};
    if (file_part == 0) continue;
    const uint64_t start = ph.p_offset + delta;
    if (start < ph.p_offset || start >= file.size()) {
      out.truncated = true;
      continue;
    }
    out.file = file.substr(start, file_part);
    out.truncated = out.file.size() < file_part;
  }
  return out;
}

/// The bytes of zeros a mapping of a file of `size` bytes shows after its end, up to the end
/// of the page: 4 KiB pages, the smallest Linux maps (a larger page only adds zeros). A file
/// offset and its address agree modulo the page size (ld.so refuses a PT_LOAD where they do
/// not), so the end of the file falls at the same place in the page of its address.
inline uint64_t ZerosPastEndOfFile(uint64_t size) {
  constexpr uint64_t kPage = 4096;
  return (kPage - size % kPage) % kPage;
}

/// The dynamic table ld.so reads, in order, up to (not including) DT_NULL.
template <class ELFT>
struct LoaderDynamic {
  enum Status {
    kNoDynamic,  ///< no PT_DYNAMIC: a static executable, or a file ld.so refuses to load
    kNoContent,  ///< PT_DYNAMIC with no bytes in the file (a separate debug file, or truncated)
    kRead,       ///< `entries` is the table
    kBroken,     ///< `error` says why the table cannot be read
  } status = kNoDynamic;
  const typename ELFT::Phdr* segment = nullptr;  ///< the PT_DYNAMIC ld.so uses
  std::vector<typename ELFT::Dyn> entries;
  std::string error;
  std::vector<std::string> notes;  ///< where the headers say more than ld.so reads, or it reads otherwise
};

/// glibc: the last PT_DYNAMIC wins, one with p_filesz 0 makes the object one "without a
/// dynamic section" (a separate debug file), and the table at p_vaddr is read until DT_NULL
/// however large PT_DYNAMIC says it is. Past the file part of its segment the zero fill reads
/// as DT_NULL. A PT_DYNAMIC outside every PT_LOAD would be read from unmapped memory by ld.so;
/// it is read at its file offset, as readelf and LLVM do, with a note.
template <class ELFT>
LoaderDynamic<ELFT> ReadLoaderDynamic(llvm::ArrayRef<typename ELFT::Phdr> phdrs, std::string_view file) {
  using Dyn = typename ELFT::Dyn;
  LoaderDynamic<ELFT> out;
  bool empty = false;
  for (const auto& ph : phdrs) {
    if (ph.p_type != llvm::ELF::PT_DYNAMIC) continue;
    if (ph.p_filesz == 0)
      empty = true;
    else
      out.segment = &ph;
  }
  if (empty || (out.segment && out.segment->p_offset >= file.size())) {
    out.status = LoaderDynamic<ELFT>::kNoContent;
    return out;
  }
  if (!out.segment) return out;
  if (out.segment->p_filesz > file.size() - out.segment->p_offset)
    out.notes.push_back(
        "PT_DYNAMIC's size (" + std::to_string(out.segment->p_filesz) +
        ") runs past the end of the file: ld.so ignores it and reads the table to its DT_NULL");
  MappedBytes at = MapAddress<ELFT>(phdrs, file, out.segment->p_vaddr);
  if (at.mapped && at.file.empty()) {  // only zero fill there, or file bytes past the end
    out.status = LoaderDynamic<ELFT>::kNoContent;
    return out;
  }
  if (!at.mapped) {
    out.notes.push_back(
        "PT_DYNAMIC's address is in no PT_LOAD segment (ld.so would read unmapped memory): read at its file "
        "offset");
    const uint64_t size = out.segment->p_filesz;
    at.file = file.substr(out.segment->p_offset, size);
    at.truncated = at.file.size() < size;
  }
  // Past the file part of its segment the table continues in the zero fill (an entry may
  // straddle the two), where the first entry read is DT_NULL. A table that runs to the end of
  // the file reads zeros there too, to the end of that page: glibc maps whole pages
  // (elf/dl-map-segments.h), and the kernel fills the part of the last page past the end of
  // the file with zeros; beyond that page only the segment's zero fill is mapped.
  uint64_t readable = at.truncated ? at.file.size() : at.file.size() + at.zeros;
  if (at.file.data() + at.file.size() == file.data() + file.size())
    readable = std::max(readable, at.file.size() + ZerosPastEndOfFile(file.size()));
  for (uint64_t pos = 0;; pos += sizeof(Dyn)) {
    if (pos > readable || readable - pos < sizeof(Dyn)) {
      out.status = LoaderDynamic<ELFT>::kBroken;
      out.error = at.truncated ? "the dynamic table runs past the end of the file before its DT_NULL"
                               : "the dynamic table has no DT_NULL before the end of its segment";
      return out;
    }
    Dyn d;
    std::memset(&d, 0, sizeof d);
    if (pos < at.file.size())
      std::memcpy(&d, at.file.data() + pos, std::min<uint64_t>(sizeof d, at.file.size() - pos));
    if (d.d_tag == llvm::ELF::DT_NULL) break;
    out.entries.push_back(d);
  }
  out.status = LoaderDynamic<ELFT>::kRead;
  return out;
}

}  // namespace rocm_audit
