#include "audit/elf_model.h"

#include <llvm/BinaryFormat/ELF.h>

namespace rocm_audit {

std::string_view ElfModel::kind_name() const {
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

// Mirrors glibc's check_match (elf/dl-lookup.c): undefined entries, symbols of a type
// the loader never binds to, and local/hidden definitions are not candidates.
const std::unordered_multimap<std::string_view, uint32_t>& ElfModel::definitions() const {
  std::call_once(definitions_once_, [this] {
    constexpr unsigned kAllowedTypes =
        (1u << llvm::ELF::STT_NOTYPE) | (1u << llvm::ELF::STT_OBJECT) |
        (1u << llvm::ELF::STT_FUNC) | (1u << llvm::ELF::STT_COMMON) |
        (1u << llvm::ELF::STT_TLS) | (1u << llvm::ELF::STT_GNU_IFUNC);
    definitions_.reserve(symbols.size());
    for (uint32_t i = 0; i < symbols.size(); ++i) {
      const DynamicSymbol& s = symbols[i];
      if (!s.defined()) continue;
      if (s.value == 0 && s.section_index != llvm::ELF::SHN_ABS && s.type != llvm::ELF::STT_TLS)
        continue;
      if (s.type >= 16 || !((1u << s.type) & kAllowedTypes)) continue;
      if (s.binding != llvm::ELF::STB_GLOBAL && s.binding != llvm::ELF::STB_WEAK &&
          s.binding != llvm::ELF::STB_GNU_UNIQUE)
        continue;
      if (s.visibility == llvm::ELF::STV_HIDDEN || s.visibility == llvm::ELF::STV_INTERNAL)
        continue;
      definitions_.emplace(s.name, i);
    }
  });
  return definitions_;
}

}  // namespace rocm_audit
