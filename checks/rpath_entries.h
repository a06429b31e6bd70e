// rpath-build-dir, rpath-relative, rpath-absolute-outside, rpath-missing-dir: the search
// entries the loader will actually use (DT_RUNPATH, else DT_RPATH) of the audited object.
#pragma once

#include "checks/check_context.h"

namespace rocm_audit {

void CheckRpathEntries(const FileContext& ctx, FindingSink& sink);

}  // namespace rocm_audit
