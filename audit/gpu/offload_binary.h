// The new offload driver's device code (clang --offload-new-driver, -fgpu-rdc objects and
// the static libraries made of them): LLVM's OffloadBinary records, back to back in an
// `.llvm.offloading` section (docs/design.md §F3). Each record names its offload kind,
// triple and arch and holds one image (bitcode or a code object).
#pragma once

#include <string_view>
#include <vector>

#include "audit/gpu/bundle.h"
#include "audit/gpu/bundle_reader.h"

namespace rocm_audit {

/// Reads every record of an `.llvm.offloading` section into one Bundle of format
/// kOffloadBinary (entries in record order, offsets within the section). What LLVM 19's
/// reader would trust unchecked (string table, image range) is checked first; a bad record
/// is a problem and ends the section.
Bundle ReadOffloadSection(std::string_view section, const BundleContainer& where);

}  // namespace rocm_audit
