// The run's one symbol index: for each symbol some audited object leaves undefined,
// which shared objects and archive members of the audited paths define it (the
// "defined in lib/librockCompiler.a(X86TargetInfo.cpp.o)" hint); for a symbol none of them
// defines, in a run given its system (--root, packages over a base), the first library of the
// base's search directories that does ("defined in /usr/lib/x86_64-linux-gnu/libm.so.6").
#pragma once

#include <optional>
#include <vector>

#include "audit/inspect/inspected_file.h"
#include "audit/inspect/load_facts.h"
#include "audit/loader/search_path.h"
#include "audit/loader/symbol_index.h"
#include "audit/model/boxed.h"

namespace rocm_audit {

/// `loads[i]` belongs to `files[i]` (empty for files that are not loadable; a file's slot is
/// empty when nothing after its own checks reads it). Providers are host ELF objects and
/// archives: ld.so never loads a GPU code object, so the kernels it defines define nothing a
/// host library can bind to (a HIP host stub has the same mangled name as its kernel).
/// `read_base`: the run was given the system it is installed in (--root, packages over a base),
/// whose libraries then provide what no audited file defines.
SymbolIndex BuildProviderIndex(const std::vector<Boxed<InspectedFile>>& files,
                               const std::vector<Boxed<LoadFacts>>& loads, const LoaderConfig& loader,
                               bool read_base = false);

}  // namespace rocm_audit
