// The report's typed facts for one file (audit/model/file_facts.h), from what the core
// inspected. Paths are shown as the installed system sees them.
#pragma once

#include "audit/inspect/inspected_file.h"
#include "audit/inspect/load_facts.h"
#include "audit/model/file_facts.h"

namespace rocm_audit {

/// `load` is null for files that are not loadable.
/// `compat`: whether the distro's ISA compatibility counts as serving a processor (the arch
/// matrix's marks). `with_symbols`: list the ELF file's exported and imported dynamic
/// symbols (ElfFacts::exports, imports). `with_load_graph`: make ClosureFacts::nodes, the
/// tree view's graph (one node per closure object, each with its DT_NEEDED edges).
FileFacts CollectFacts(const InspectedFile& file, const LoadFacts* load, const LoaderConfig& loader,
                       IsaCompat compat = IsaCompat::kNone, bool with_symbols = false,
                       bool with_load_graph = true);

/// What another object can bind to (ElfFacts::exports) and what this one asks for
/// (imports), as `nm -D` names them; sets has_symbols.
void CollectSymbols(const ElfModel& m, ElfFacts* f);

}  // namespace rocm_audit
