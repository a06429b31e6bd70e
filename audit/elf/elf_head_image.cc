#include "audit/elf/elf_head_image.h"

#include <unistd.h>

#include <llvm/BinaryFormat/ELF.h>
#include <llvm/Object/ELFTypes.h>
#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace rocm_audit {
namespace {

bool ReadAt(int fd, void* out, uint64_t size, uint64_t offset) {
  auto* p = static_cast<char*>(out);
  while (size > 0) {
    ssize_t n = pread(fd, p, std::min<uint64_t>(size, uint64_t(1) << 30), static_cast<off_t>(offset));
    if (n <= 0) return false;
    p += n;
    size -= static_cast<uint64_t>(n);
    offset += static_cast<uint64_t>(n);
  }
  return true;
}

// Where the image ends: past every range of the file the reader reads by offset.
class HeadExtent {
 public:
  explicit HeadExtent(uint64_t size) : size_(size) {}
  void Cover(uint64_t offset, uint64_t length) {
    if (offset <= size_ && length <= size_ - offset) end_ = std::max(end_, offset + length);
  }
  uint64_t end() const { return end_; }

 private:
  uint64_t size_, end_ = 0;
};

template <class ELFT>
class HeadImage {
 public:
  using Ehdr = typename ELFT::Ehdr;
  using Phdr = typename ELFT::Phdr;
  using Shdr = typename ELFT::Shdr;
  using Dyn = typename ELFT::Dyn;

  HeadImage(int fd, uint64_t size) : fd_(fd), size_(size), extent_(size) {}

  std::shared_ptr<llvm::MemoryBuffer> Make(const std::string& path, std::string* error) {
    if (!ReadAt(fd_, &eh_, sizeof eh_, 0)) return Fail(error, "the ELF header cannot be read");
    extent_.Cover(0, sizeof eh_);
    ReadProgramHeaders();
    ReadSectionHeaders();
    if (extent_.end() > kMaxElfHeadBytes)
      return Fail(error,
                  "the file (" + std::to_string(size_) +
                      " bytes) cannot be mapped whole, and the tables the audit reads reach past its first " +
                      std::to_string(kMaxElfHeadBytes) + " bytes");
    return Image(path, error);
  }

 private:
  std::shared_ptr<llvm::MemoryBuffer> Fail(std::string* error, std::string why) {
    *error = std::move(why);
    return nullptr;
  }

  // The program headers, and the segments ld.so reads by offset: the interpreter, notes and
  // the dynamic table; then the string table the dynamic table names, which a file without
  // section headers has in no section.
  void ReadProgramHeaders() {
    if (eh_.e_phnum == 0 || eh_.e_phentsize != sizeof(Phdr)) return;
    phdrs_.resize(eh_.e_phnum);
    if (!ReadAt(fd_, phdrs_.data(), phdrs_.size() * sizeof(Phdr), eh_.e_phoff)) return phdrs_.clear();
    extent_.Cover(eh_.e_phoff, phdrs_.size() * sizeof(Phdr));
    for (const Phdr& ph : phdrs_)
      if (ph.p_type == llvm::ELF::PT_INTERP || ph.p_type == llvm::ELF::PT_NOTE ||
          ph.p_type == llvm::ELF::PT_DYNAMIC)
        extent_.Cover(ph.p_offset, ph.p_filesz);
    for (const Phdr& ph : phdrs_)
      if (ph.p_type == llvm::ELF::PT_DYNAMIC) CoverDynamicStrings(ph);
  }

  void CoverDynamicStrings(const Phdr& dynamic) {
    if (dynamic.p_offset > size_ ||
        dynamic.p_filesz > std::min<uint64_t>(size_ - dynamic.p_offset, kMaxElfHeadBytes))
      return;
    std::vector<Dyn> entries(dynamic.p_filesz / sizeof(Dyn));
    if (!ReadAt(fd_, entries.data(), entries.size() * sizeof(Dyn), dynamic.p_offset)) return;
    uint64_t strtab = 0, strsz = 0;
    for (const Dyn& d : entries) {
      if (d.d_tag == llvm::ELF::DT_NULL) break;
      if (d.d_tag == llvm::ELF::DT_STRTAB) strtab = d.getPtr();
      if (d.d_tag == llvm::ELF::DT_STRSZ) strsz = d.getVal();
    }
    for (const Phdr& ph : phdrs_)
      if (ph.p_type == llvm::ELF::PT_LOAD && strtab >= ph.p_vaddr && strtab - ph.p_vaddr < ph.p_filesz)
        extent_.Cover(ph.p_offset + (strtab - ph.p_vaddr), std::min<uint64_t>(strsz, ph.p_filesz));
  }

  // The section headers, and the sections the audit reads: dynamic symbols, their strings,
  // versions, hash tables, relocations, notes.
  void ReadSectionHeaders() {
    if (eh_.e_shoff == 0 || eh_.e_shentsize != sizeof(Shdr) || eh_.e_shoff > size_) return;
    uint64_t count = eh_.e_shnum;
    if (count == 0) {  // more than SHN_LORESERVE sections: section 0's sh_size counts them
      Shdr first;
      if (!ReadAt(fd_, &first, sizeof first, eh_.e_shoff)) return;
      count = first.sh_size;
    }
    if (count == 0 || count > (size_ - eh_.e_shoff) / sizeof(Shdr)) return;
    shdrs_.resize(count);
    if (!ReadAt(fd_, shdrs_.data(), count * sizeof(Shdr), eh_.e_shoff)) return shdrs_.clear();
    for (const Shdr& s : shdrs_) {
      if (!Read(s.sh_type)) continue;
      extent_.Cover(s.sh_offset, s.sh_size);
      if (s.sh_link < shdrs_.size()) extent_.Cover(shdrs_[s.sh_link].sh_offset, shdrs_[s.sh_link].sh_size);
    }
  }

  static bool Read(uint32_t type) {
    switch (type) {
      case llvm::ELF::SHT_DYNSYM:
      case llvm::ELF::SHT_DYNAMIC:
      case llvm::ELF::SHT_HASH:
      case llvm::ELF::SHT_GNU_HASH:
      case llvm::ELF::SHT_GNU_versym:
      case llvm::ELF::SHT_GNU_verdef:
      case llvm::ELF::SHT_GNU_verneed:
      case llvm::ELF::SHT_REL:
      case llvm::ELF::SHT_RELA:
      case llvm::ELF::SHT_NOTE: return true;
    }
    return false;
  }

  // The start of the file, then the section headers and the section names copied after it,
  // the header's e_shoff and the names' sh_offset pointing at the copies.
  std::shared_ptr<llvm::MemoryBuffer> Image(const std::string& path, std::string* error) {
    const uint64_t head = extent_.end();
    const uint64_t shoff = (head + 7) & ~uint64_t(7), table = shdrs_.size() * sizeof(Shdr);
    uint64_t names_index = eh_.e_shstrndx == llvm::ELF::SHN_XINDEX && !shdrs_.empty()
                               ? uint64_t(shdrs_[0].sh_link)
                               : uint64_t(eh_.e_shstrndx);
    uint64_t names = 0;
    if (names_index != 0 && names_index < shdrs_.size() && shdrs_[names_index].sh_size <= kMaxElfHeadBytes)
      names = shdrs_[names_index].sh_size;
    auto buffer = llvm::WritableMemoryBuffer::getNewMemBuffer(shoff + table + names, path);
    if (!buffer) return Fail(error, "memory for the file's tables cannot be had");
    char* out = buffer->getBufferStart();
    if (!ReadAt(fd_, out, head, 0)) return Fail(error, "the start of the file cannot be read");
    if (!shdrs_.empty()) {
      if (names && ReadAt(fd_, out + shoff + table, names, shdrs_[names_index].sh_offset))
        shdrs_[names_index].sh_offset = shoff + table;
      // A section past the image (device code in a huge .hip_fatbin) has no bytes here: it
      // reads as SHT_NOBITS, never as a section that runs past the end of a valid file.
      for (uint64_t i = 1; i < shdrs_.size(); ++i) {
        Shdr& sh = shdrs_[i];
        if (i != names_index && sh.sh_type != llvm::ELF::SHT_NOBITS &&
            (sh.sh_offset > head || sh.sh_size > head - sh.sh_offset))
          sh.sh_type = llvm::ELF::SHT_NOBITS;
      }
      std::memcpy(out + shoff, shdrs_.data(), table);
      eh_.e_shoff = shoff;
      std::memcpy(out, &eh_, sizeof eh_);
    }
    return std::shared_ptr<llvm::MemoryBuffer>(std::move(buffer));
  }

  int fd_;
  uint64_t size_;
  HeadExtent extent_;
  Ehdr eh_;
  std::vector<Phdr> phdrs_;
  std::vector<Shdr> shdrs_;
};

}  // namespace

std::shared_ptr<llvm::MemoryBuffer> ReadElfHeadImage(int fd, uint64_t size, const std::string& path,
                                                     std::string* error) {
  unsigned char ident[llvm::ELF::EI_NIDENT] = {};
  if (size < sizeof(ident) || !ReadAt(fd, ident, sizeof ident, 0) ||
      std::memcmp(ident, llvm::ELF::ElfMagic, 4) != 0)
    return nullptr;
  const bool elf64 = ident[llvm::ELF::EI_CLASS] == llvm::ELF::ELFCLASS64;
  const bool little = ident[llvm::ELF::EI_DATA] != llvm::ELF::ELFDATA2MSB;
  if (elf64) {
    if (little) return HeadImage<llvm::object::ELF64LE>(fd, size).Make(path, error);
    return HeadImage<llvm::object::ELF64BE>(fd, size).Make(path, error);
  }
  if (little) return HeadImage<llvm::object::ELF32LE>(fd, size).Make(path, error);
  return HeadImage<llvm::object::ELF32BE>(fd, size).Make(path, error);
}

}  // namespace rocm_audit
