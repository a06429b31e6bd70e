// undefined-symbol and missing-version: ldd -r's verdicts for the audited object's own
// references, computed from the closure's global scope instead of by running the loader.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "audit/symbol_index.h"
#include "checks/check_context.h"

namespace rocm_audit {

/// Symbols that stay unbound because a library is unresolved, by that library's
/// DT_NEEDED name: reported on the unresolved-library finding, not one by one.
using UnboundBehindLibrary = std::map<std::string, std::vector<std::string>>;

void CheckUndefinedSymbols(const FileContext& ctx, FindingSink& sink, UnboundBehindLibrary* unbound);

/// Adds `providers` (and a specific hint) to every undefined-symbol finding.
void AddProviderHints(std::vector<Finding>& findings, const SymbolIndex& index);

}  // namespace rocm_audit
