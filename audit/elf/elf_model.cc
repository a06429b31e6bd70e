#include "audit/elf/elf_model.h"

#include <llvm/BinaryFormat/ELF.h>

namespace rocm_audit {

std::string_view ElfModel::kind_name() const {
  if (separate_debug) return "elf-debug-info";
  switch (type) {
    case llvm::ELF::ET_REL: return "elf-relocatable";
    case llvm::ELF::ET_EXEC: return "elf-executable";
    case llvm::ELF::ET_DYN: return has_interpreter ? "elf-executable" : "elf-shared-library";
    case llvm::ELF::ET_CORE: return "elf-core";
  }
  return "elf-other";
}

std::string_view ElfModel::machine_name() const {
  switch (machine) {
    case llvm::ELF::EM_X86_64: return "x86-64";
    case llvm::ELF::EM_386: return "i386";
    case llvm::ELF::EM_AARCH64: return "aarch64";
    case llvm::ELF::EM_ARM: return "arm";
    case llvm::ELF::EM_PPC64: return "ppc64";
    case llvm::ELF::EM_RISCV: return "riscv";
    case llvm::ELF::EM_S390: return "s390";
    case llvm::ELF::EM_AMDGPU: return "amdgpu";
  }
  return "unknown";
}

namespace {

uint32_t Read32(const uint8_t* p, bool little_endian) {
  return little_endian ? (p[0] | p[1] << 8 | p[2] << 16 | static_cast<uint32_t>(p[3]) << 24)
                       : (static_cast<uint32_t>(p[0]) << 24 | p[1] << 16 | p[2] << 8 | p[3]);
}

uint64_t Read64(const uint8_t* p, bool little_endian) {
  const uint64_t a = Read32(p, little_endian), b = Read32(p + 4, little_endian);
  return little_endian ? (b << 32 | a) : (a << 32 | b);
}

// A word of a SysV hash table: 4 or 8 bytes (HashTable::word_size). An 8-byte value past
// 32 bits is no symbol index: it reads as one no table has, which ends a chain.
uint32_t ReadHashWord(const uint8_t* p, uint8_t size, bool little_endian) {
  if (size == 4) return Read32(p, little_endian);
  const uint64_t high = Read32(p + (little_endian ? 4 : 0), little_endian);
  return high ? UINT32_MAX : Read32(p + (little_endian ? 0 : 4), little_endian);
}

// The hash functions of the two ELF symbol hash tables (dl-hash.h, dl-new-hash.h).
uint32_t GnuHash(std::string_view name) {
  uint32_t h = 5381;
  for (unsigned char c : name) h = h * 33 + c;
  return h;
}

uint32_t SysvHash(std::string_view name) {
  uint32_t h = 0;
  for (unsigned char c : name) {
    h = (h << 4) + c;
    uint32_t g = h & 0xf0000000;
    if (g) h ^= g >> 24;
    h &= ~g;
  }
  return h;
}

}  // namespace

std::string_view ElfModel::NameOf(const DynamicSymbol& s) const {
  if (s.name_offset >= dynamic_strings.size()) return {};
  size_t end = dynamic_strings.find('\0', s.name_offset);
  if (end == std::string_view::npos) return {};
  return dynamic_strings.substr(s.name_offset, end - s.name_offset);
}

// Mirrors glibc's check_match (elf/dl-lookup.c): undefined entries, symbols of a type
// the loader never binds to, and local/hidden definitions are not candidates.
bool ElfModel::Bindable(const DynamicSymbol& s) const {
  constexpr unsigned kAllowedTypes = (1u << llvm::ELF::STT_NOTYPE) | (1u << llvm::ELF::STT_OBJECT) |
                                     (1u << llvm::ELF::STT_FUNC) | (1u << llvm::ELF::STT_COMMON) |
                                     (1u << llvm::ELF::STT_TLS) | (1u << llvm::ELF::STT_GNU_IFUNC);
  if (!s.defined()) return false;
  if (s.value == 0 && s.section_index != llvm::ELF::SHN_ABS && s.type != llvm::ELF::STT_TLS) return false;
  if (s.type >= 16 || !((1u << s.type) & kAllowedTypes)) return false;
  if (s.binding != llvm::ELF::STB_GLOBAL && s.binding != llvm::ELF::STB_WEAK &&
      s.binding != llvm::ELF::STB_GNU_UNIQUE)
    return false;
  return s.visibility != llvm::ELF::STV_HIDDEN && s.visibility != llvm::ELF::STV_INTERNAL;
}

// do_lookup_x's test: two bits of one word of the filter, both set for every name the table
// holds. A name whose bits are clear is not looked for in the buckets, by ld.so or here.
// The hash is uint_fast32_t, as wide as the class's words on x86 (64 bits for ELFCLASS64),
// and the shift is taken as x86 takes it (modulo the width).
bool ElfModel::MayBeInBloom(uint32_t hash) const {
  const HashTable& h = hash_table;
  const unsigned bits = elf_class == 2 ? 64 : 32;
  const uint32_t index = (hash / bits) & (h.bloom_words - 1);
  const uint64_t word = bits == 64 ? Read64(h.bloom + 8ull * index, little_endian)
                                   : Read32(h.bloom + 4ull * index, little_endian);
  const unsigned bit1 = hash & (bits - 1);
  const unsigned bit2 = (uint64_t{hash} >> (h.bloom_shift & (bits - 1))) & (bits - 1);
  return (word >> bit1) & (word >> bit2) & 1;
}

// A candidate's name is compared in place: its bytes, then the NUL that ends it there. A name
// with a NUL of its own is no symbol's (NameOf ends at the first), and an empty one matches
// the symbols NameOf finds no name for.
bool ElfModel::NameIs(const DynamicSymbol& s, std::string_view name) const {
  if (name.empty()) return NameOf(s).empty();
  const size_t at = s.name_offset;
  if (at >= dynamic_strings.size() || dynamic_strings.size() - at <= name.size()) return false;
  if (dynamic_strings.compare(at, name.size(), name) != 0 || dynamic_strings[at + name.size()] != '\0')
    return false;
  return name.find('\0') == std::string_view::npos;
}

ElfModel::LookupName ElfModel::Lookup(std::string_view name) { return {name, GnuHash(name)}; }

void ElfModel::ForEachUndefined(llvm::function_ref<void(uint32_t, const DynamicSymbol&)> visit) const {
  if (undefined_symbols) {
    for (uint32_t i : *undefined_symbols) visit(i, SymbolAt(i));
    return;
  }
  for (uint32_t i = 1; i < symbol_count(); ++i)
    if (const DynamicSymbol s = SymbolAt(i); !s.defined()) visit(i, s);
}

void ElfModel::ForEachDefinition(std::string_view name, llvm::function_ref<void(uint32_t)> visit) const {
  ForEachDefinition(Lookup(name), visit);
}

void ElfModel::ForEachDefinition(const LookupName& lookup, llvm::function_ref<void(uint32_t)> visit) const {
  const HashTable& h = hash_table;
  const std::string_view name = lookup.name;
  auto consider = [&](uint32_t index) {
    if (index >= symbol_count()) return;
    DynamicSymbol s = SymbolAt(index);
    if (Bindable(s) && NameIs(s, name)) visit(index);
  };
  if (h.kind == HashTable::kGnu) {
    const uint32_t hash = lookup.gnu_hash;
    if (h.bloom && !MayBeInBloom(hash)) return;
    uint32_t index = Read32(h.buckets + 4 * (hash % h.bucket_count), little_endian);
    if (index < h.first_hashed) return;  // empty bucket
    for (; index - h.first_hashed < h.chain_count; ++index) {
      uint32_t chain = Read32(h.chains + 4 * (index - h.first_hashed), little_endian);
      if ((chain | 1) == (hash | 1)) consider(index);
      if (chain & 1) break;  // last entry of this bucket's chain
    }
    return;
  }
  if (h.kind == HashTable::kSysv) {
    const uint8_t w = h.word_size;
    uint32_t index = ReadHashWord(h.buckets + w * (SysvHash(name) % h.bucket_count), w, little_endian);
    // A chain longer than the table has entries is a loop: stop there.
    for (uint32_t steps = 0; index != 0 && index < h.chain_count && steps <= h.chain_count; ++steps) {
      consider(index);
      index = ReadHashWord(h.chains + uint64_t{w} * index, w, little_endian);
    }
    return;
  }
  std::call_once(fallback_once_, [this] {
    for (uint32_t i = 1; i < symbol_count(); ++i) {
      DynamicSymbol s = SymbolAt(i);
      if (Bindable(s)) fallback_.emplace(NameOf(s), i);
    }
  });
  auto [begin, end] = fallback_.equal_range(name);
  for (auto it = begin; it != end; ++it) visit(it->second);
}

}  // namespace rocm_audit
