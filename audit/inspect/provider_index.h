// The run's one symbol index: for each symbol some audited object leaves undefined,
// which shared objects and archive members of the audited paths define it (the
// "defined in lib/librockCompiler.a(X86TargetInfo.cpp.o)" hint).
#pragma once

#include <optional>
#include <vector>

#include "audit/inspect/inspected_file.h"
#include "audit/inspect/load_facts.h"
#include "audit/loader/search_path.h"
#include "audit/loader/symbol_index.h"

namespace rocm_audit {

/// `loads[i]` belongs to `files[i]` (nullopt for files that are not loadable).
SymbolIndex BuildProviderIndex(const std::vector<InspectedFile>& files,
                               const std::vector<std::optional<LoadFacts>>& loads,
                               const LoaderConfig& loader);

}  // namespace rocm_audit
