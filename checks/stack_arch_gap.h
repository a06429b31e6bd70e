// stack-arch-gap: in one load closure, the GPU targets that every device-code library
// serves, and those served by some but not all (Debian's ROCm 6.4: gfx1200 in hipBLASLt
// and rocSOLVER, not in rocBLAS). Targets are --require-arch when given, else every
// target ID any library of the closure offers.
#pragma once

#include <string>
#include <vector>

#include "checks/check_context.h"

namespace rocm_audit {

struct StackCoverage {
  std::vector<std::string> libraries;  ///< closure members with device code (display paths)
  std::vector<std::string> common;     ///< targets every one of them serves
};

StackCoverage CheckStackArchGap(const FileContext& ctx, FindingSink& sink);

}  // namespace rocm_audit
