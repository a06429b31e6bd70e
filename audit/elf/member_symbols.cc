#include "audit/elf/member_symbols.h"

#include <llvm/BinaryFormat/ELF.h>
#include <llvm/Support/Endian.h>

#include <cstdint>
#include <optional>

namespace rocm_audit {
namespace {

// The fields this reader needs, at their offsets in each class (System V gABI, ch. 4).
struct Layout {
  size_t ehdr, machine, shoff, shoff_width, shentsize, shnum;
  size_t shdr, sh_type, sh_offset, sh_size, sh_link, sh_entsize, sh_width;
  size_t sym, st_name, st_info, st_shndx;
};
constexpr Layout kElf32{52, 18, 32, 4, 46, 48, 40, 4, 16, 20, 24, 36, 4, 16, 0, 12, 14};
constexpr Layout kElf64{64, 18, 40, 8, 58, 60, 64, 4, 24, 32, 40, 56, 8, 24, 0, 4, 6};

class Reader {
 public:
  Reader(std::string_view bytes, const Layout& l, bool little) : b_(bytes), l_(l), little_(little) {}

  const Layout& layout() const { return l_; }
  uint64_t size() const { return b_.size(); }
  uint64_t OffsetOf(std::string_view part) const { return part.data() - b_.data(); }

  // A field of `width` bytes at `at`; the caller has checked the range.
  uint64_t Field(uint64_t at, size_t width) const {
    const char* p = b_.data() + at;
    auto order = little_ ? llvm::endianness::little : llvm::endianness::big;
    switch (width) {
      case 1: return uint8_t(*p);
      case 2: return llvm::support::endian::read16(p, order);
      case 4: return llvm::support::endian::read32(p, order);
      default: return llvm::support::endian::read64(p, order);
    }
  }

  // [offset, offset + size) when it lies inside the bytes (the subtraction form: no sum
  // that can wrap).
  std::optional<std::string_view> Range(uint64_t offset, uint64_t size) const {
    if (offset > b_.size() || size > b_.size() - offset) return std::nullopt;
    return b_.substr(offset, size);
  }

 private:
  std::string_view b_;
  const Layout& l_;
  bool little_;
};

struct Section {
  uint64_t type, offset, size, link, entsize;
};

Section SectionAt(const Reader& r, uint64_t shoff, uint64_t i) {
  const Layout& l = r.layout();
  uint64_t at = shoff + i * l.shdr;
  return {r.Field(at + l.sh_type, 4), r.Field(at + l.sh_offset, l.sh_width),
          r.Field(at + l.sh_size, l.sh_width), r.Field(at + l.sh_link, 4),
          r.Field(at + l.sh_entsize, l.sh_width)};
}

// The section header table as llvm::object::ELFFile::sections() takes it: e_shentsize the
// class's size, e_shnum 0 meaning the count is section 0's sh_size (gABI extended numbering),
// the whole table inside the file.
bool SectionTable(const Reader& r, uint64_t* shoff, uint64_t* shnum, std::string* error) {
  const Layout& l = r.layout();
  *shoff = r.Field(l.shoff, l.shoff_width);
  *shnum = r.Field(l.shnum, 2);
  if (*shoff == 0) {
    *shnum = 0;  // no section headers: no symbol table
    return true;
  }
  if (r.Field(l.shentsize, 2) != l.shdr) {
    *error = "e_shentsize " + std::to_string(r.Field(l.shentsize, 2)) + " is not " + std::to_string(l.shdr);
    return false;
  }
  if (!r.Range(*shoff, l.shdr)) {
    *error = "e_shoff " + std::to_string(*shoff) + " is past the end of the member";
    return false;
  }
  if (*shnum == 0) *shnum = SectionAt(r, *shoff, 0).size;
  if (*shnum > (r.size() - *shoff) / l.shdr) {
    *error = "section header table of " + std::to_string(*shnum) + " entries goes past the end of the member";
    return false;
  }
  return true;
}

// The string table a symbol table links, as ELFFile::getStringTableForSymtab checks it:
// SHT_STRTAB, inside the file, ending in NUL (so every name found in it ends).
std::optional<std::string_view> LinkedStrings(const Reader& r, uint64_t shoff, uint64_t shnum,
                                              const Section& symtab, std::string* error) {
  if (symtab.link >= shnum) {
    *error = "symbol table links section " + std::to_string(symtab.link) + " of " + std::to_string(shnum);
    return std::nullopt;
  }
  Section s = SectionAt(r, shoff, symtab.link);
  std::optional<std::string_view> strings = r.Range(s.offset, s.size);
  if (s.type != llvm::ELF::SHT_STRTAB || !strings || strings->empty() || strings->back() != '\0') {
    *error = "the symbol table's string table (section " + std::to_string(symtab.link) +
             ") is not a NUL-terminated SHT_STRTAB inside the member";
    return std::nullopt;
  }
  return strings;
}

bool ForEachDefinedGlobal(const Reader& r, std::string_view symbols, std::string_view strings,
                          const std::function<void(std::string_view)>& visit, std::string* error) {
  const Layout& l = r.layout();
  const uint64_t base = r.OffsetOf(symbols);
  // Entry 0 is the null symbol (gABI); ELFObjectFile's symbol_begin() skips it too.
  for (uint64_t i = 1; i < symbols.size() / l.sym; ++i) {
    uint64_t at = base + i * l.sym;
    uint64_t binding = r.Field(at + l.st_info, 1) >> 4;
    if (binding == llvm::ELF::STB_LOCAL || r.Field(at + l.st_shndx, 2) == llvm::ELF::SHN_UNDEF) continue;
    uint64_t name = r.Field(at + l.st_name, 4);
    if (name >= strings.size()) {
      *error = "symbol " + std::to_string(i) + ": st_name " + std::to_string(name) +
               " is past the end of the string table";
      return false;
    }
    std::string_view rest = strings.substr(name);
    visit(rest.substr(0, rest.find('\0')));
  }
  return true;
}

}  // namespace

bool IsReadableElf(std::string_view bytes) {
  if (bytes.size() < llvm::ELF::EI_NIDENT || !bytes.starts_with("\x7f"
                                                                "ELF"))
    return false;
  const uint8_t cls = bytes[llvm::ELF::EI_CLASS], data = bytes[llvm::ELF::EI_DATA];
  if (data != llvm::ELF::ELFDATA2LSB && data != llvm::ELF::ELFDATA2MSB) return false;
  if (cls == llvm::ELF::ELFCLASS32) return bytes.size() >= kElf32.ehdr;
  return cls == llvm::ELF::ELFCLASS64 && bytes.size() >= kElf64.ehdr;
}

bool ForEachElfMemberDefinition(std::string_view bytes,
                                const std::function<void(std::string_view name)>& visit, std::string* error) {
  if (!IsReadableElf(bytes)) {
    *error = "not an ELF file of a known class and byte order";
    return false;
  }
  const bool elf64 = uint8_t(bytes[llvm::ELF::EI_CLASS]) == llvm::ELF::ELFCLASS64;
  Reader r(bytes, elf64 ? kElf64 : kElf32, uint8_t(bytes[llvm::ELF::EI_DATA]) == llvm::ELF::ELFDATA2LSB);
  if (r.Field(r.layout().machine, 2) == llvm::ELF::EM_AMDGPU) return true;
  uint64_t shoff = 0, shnum = 0;
  if (!SectionTable(r, &shoff, &shnum, error)) return false;
  for (uint64_t i = 0; i < shnum; ++i) {
    Section s = SectionAt(r, shoff, i);
    if (s.type != llvm::ELF::SHT_SYMTAB) continue;
    std::optional<std::string_view> symbols = r.Range(s.offset, s.size);
    if (!symbols || s.entsize != r.layout().sym || s.size % r.layout().sym != 0) {
      *error = "symbol table (section " + std::to_string(i) + ") is not whole entries inside the member";
      return false;
    }
    std::optional<std::string_view> strings = LinkedStrings(r, shoff, shnum, s, error);
    return strings && ForEachDefinedGlobal(r, *symbols, *strings, visit, error);
  }
  return true;  // no symbol table (stripped): it defines nothing a linker can see
}

}  // namespace rocm_audit
