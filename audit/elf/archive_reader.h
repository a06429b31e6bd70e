// Reads static archives through LLVM's bounds-checked member iteration. The archive's
// symbol index (armap) is not used: LLVM 19's Archive::Symbol::getMember() follows its
// member offsets unchecked, and a stale armap would lie.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace rocm_audit {

/// Walks the member headers only. Returns false with `error` for a corrupt archive.
bool ValidateArchive(std::string_view bytes, size_t* members, std::string* error);

/// Calls `visit(name, data)` for each member, in order; stops at the first corrupt header
/// (returning false with `error`).
bool ForEachArchiveMember(std::string_view bytes,
                          const std::function<void(std::string_view name, std::string_view data)>& visit,
                          std::string* error);

/// Calls `visit(symbol, member)` for each global symbol a member object defines. Returns
/// false with `error` set when the archive cannot be read (the symbols visited so far stand).
bool ForEachArchiveDefinition(
    std::string_view bytes,
    const std::function<void(std::string_view symbol, std::string_view member)>& visit, std::string* error);

}  // namespace rocm_audit
