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
/// symbols (ElfFacts::exports, imports).
FileFacts CollectFacts(const InspectedFile& file, const LoadFacts* load, const LoaderConfig& loader,
                       IsaCompat compat = IsaCompat::kNone, bool with_symbols = false);

/// What another object can bind to (ElfFacts::exports) and what this one asks for
/// (imports), as `nm -D` names them; sets has_symbols.
void CollectSymbols(const ElfModel& m, ElfFacts* f);

}  // namespace rocm_audit
