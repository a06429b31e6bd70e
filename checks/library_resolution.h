// unresolved-library: a DT_NEEDED anywhere in the closure that ld.so would not find, with
// the directories searched in order (libtree's explanation) and the symbols it hides.
#pragma once

#include "checks/check_context.h"
#include "checks/undefined_symbols.h"

namespace rocm_audit {

void CheckLibraryResolution(const FileContext& ctx, const UnboundBehindLibrary& unbound,
                            FindingSink& sink);

}  // namespace rocm_audit
