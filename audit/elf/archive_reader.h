// Reads static archives: the member headers through LLVM's bounds-checked walk (the one
// llvm-ar uses), every error of a header, a name or a size ending the walk as malformed; the
// GNU symbol table checked against the members it names; and the symbols of ELF members
// only, read by a bounds-checked reader of our own. A member of another format (WebAssembly,
// COFF, Mach-O, LLVM bitcode, anything) is counted and named, never handed to LLVM's
// createBinary/createObjectFile, whose readers report_fatal_error (abort the process) or
// reserve what a count claims on some hostile inputs (WasmObjectFile: "LEB is outside
// Varuint32 range"; a type section claiming 2^32 entries).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace rocm_audit {

/// A member that is not ELF, by the format its first bytes name (llvm::identify_magic).
struct NonElfMember {
  std::string name;
  std::string format;  ///< "wasm", "coff", "mach-o", "llvm-bitcode", "offload-bundle", "other", ...
};

struct ArchiveSummary {
  uint64_t members = 0;             ///< regular members (not the symbol or name table)
  uint64_t non_elf = 0;             ///< members whose bytes are not ELF (thin members: not read)
  std::vector<NonElfMember> named;  ///< the first kMaxNonElfNamed of them
};

inline constexpr size_t kMaxNonElfNamed = 16;

/// Walks the member headers and checks the symbol table. Returns false with `error` (which
/// member, which offset lies) for a malformed archive.
[[nodiscard]] bool ValidateArchive(std::string_view bytes, ArchiveSummary* summary, std::string* error);

/// Calls `visit(name, data)` for each member, in order; stops at the first malformed header
/// or name (returning false with `error`). A thin archive's members are not visited: they
/// are other files, named relative to wherever the archive was made.
[[nodiscard]] bool ForEachArchiveMember(
    std::string_view bytes, const std::function<void(std::string_view name, std::string_view data)>& visit,
    std::string* error);

/// Calls `visit(symbol, member)` for each global symbol an ELF member's .symtab defines (GPU
/// code objects aside: ld.so never binds a host symbol to one). Other members are skipped
/// unread. Returns false with `error` set when the archive cannot be walked (the symbols
/// visited so far stand); an ELF member with a corrupt symbol table only ends its own symbols.
[[nodiscard]] bool ForEachArchiveDefinition(
    std::string_view bytes,
    const std::function<void(std::string_view symbol, std::string_view member)>& visit, std::string* error);

}  // namespace rocm_audit
