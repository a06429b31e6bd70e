// Reads an ElfModel from a mapped file with LLVM's lazy ELF reader. Every table is
// bounds-checked by LLVM; a file it refuses becomes an error string, never a crash.
#pragma once

#include <memory>
#include <string>

#include <sys/stat.h>

#include "audit/elf/elf_model.h"

namespace rocm_audit {

/// Maps `path` read-only, never blocking: anything but a regular file is refused ("not a
/// regular file"). Returns nullptr and sets `error` when it cannot be read.
/// `opened`, when given, is set to the file's fstat.
std::shared_ptr<llvm::MemoryBuffer> MapFile(const std::string& path, std::string* error,
                                            struct stat* opened = nullptr);

/// Parses the header only: enough for the loader's class/machine test.
struct ElfIdentity {
  uint8_t elf_class = 0;
  bool little_endian = true;
  uint16_t type = 0;
  uint16_t machine = 0;
};
[[nodiscard]] bool ReadElfIdentity(std::string_view bytes, ElfIdentity* out, std::string* error);

/// Parses everything the audit uses. Returns false with `error` set for a file the loader
/// could not use either (truncated header, tables past the end of the file, ...).
[[nodiscard]] bool ReadElf(std::shared_ptr<llvm::MemoryBuffer> buffer, std::string path, ElfModel* model,
                           std::string* error);

/// How many times this process has scanned a model's relocation tables for the symbols they
/// name (SymbolTable::RelocatedSymbols): for tests of who asks.
uint64_t RelocationScans();

}  // namespace rocm_audit
