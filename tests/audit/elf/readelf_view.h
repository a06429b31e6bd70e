// GNU readelf (binutils) as the third ELF reader, the referee where rocm-audit and LIEF
// disagree: `readelf -W -d -V --dyn-syms FILE` parsed back into an ElfView. binutils reads
// ELF with its own code (binutils/readelf.c); llvm-readelf would not do, as it reads through
// the same LLVM Object library as rocm-audit's reader.
#pragma once

#include <string>

#include "tests/audit/elf/elf_view.h"

namespace rocm_audit {

/// Parses readelf's output (-W, binutils 2.40's layout). Returns false with `error` set for a
/// line of a known section that does not parse, so a changed layout fails loudly instead of
/// reading as an empty table.
bool ParseReadelf(const std::string& text, ElfView* out, std::string* error);

/// Runs `readelf` (the binary's path) on `path` and parses what it prints.
bool RunReadelf(const std::string& readelf, const std::string& path, ElfView* out, std::string* error);

}  // namespace rocm_audit
