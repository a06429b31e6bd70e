// Lists the global symbols a static archive's members define, from the archive's own
// symbol index (the ranlib map the link editor uses), falling back to reading each
// member's symbol table when the archive has no index.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace rocm_audit {

/// Calls `visit(symbol, member)` for each defined global symbol. Returns false with `error`
/// set when the archive cannot be read (the symbols visited so far stand).
bool ForEachArchiveDefinition(
    std::string_view bytes,
    const std::function<void(std::string_view symbol, std::string_view member)>& visit,
    std::string* error);

}  // namespace rocm_audit
