// The global symbols an ELF object in a static archive defines, read from its .symtab as ld
// reads an archive member: both classes and byte orders, every offset and count checked
// against the member's bytes, names as views into them. No LLVM ObjectFile: its symbol
// accessors call report_fatal_error on a symbol they cannot read (ELFObjectFile.h), and
// nothing here allocates by what a header claims.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace rocm_audit {

/// Whether `bytes` start as an ELF file this reader takes: "\x7fELF", ELFCLASS32 or
/// ELFCLASS64, ELFDATA2LSB or ELFDATA2MSB, and room for the ELF header of that class.
bool IsReadableElf(std::string_view bytes);

/// Calls `visit(name)` for each symbol of the first SHT_SYMTAB section (the one
/// llvm::object::ELFObjectFile and ld read) whose binding is not STB_LOCAL and whose
/// section is not SHN_UNDEF: what ar's symbol index lists for the member. An AMDGPU code
/// object defines nothing for the host: nothing is visited. Returns false with `error`
/// when the headers or the table lie (the names visited before stand).
[[nodiscard]] bool ForEachElfMemberDefinition(std::string_view bytes,
                                              const std::function<void(std::string_view name)>& visit,
                                              std::string* error);

}  // namespace rocm_audit
