// The compatibility verdict of `diff OLD NEW`, per package of NEW (NEW itself when it is no
// package): compatible, or what the update needs or drops, read from the comparison's
// findings (compare.h) and the sides' packages: a symbol removed under one SONAME needs a
// SONAME bump (and, Debian Policy 8.1, a package named after it); a SONAME changed needs a
// transition of the files that still link the old one; processors and CMake interface
// dropped; then how many defects its files gained (new-finding).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "audit/model/report.h"
#include "diff/side.h"

namespace rocm_audit {

/// One verdict per package of `new_side`, in its order (its inputs' order for a tree).
std::vector<PackageVerdict> PackageVerdicts(const Side& old_side, const Side& new_side,
                                            const std::vector<Finding>& findings);

/// The package name Debian Policy 8.1 gives the library package of `next_soname` when
/// `package` is named after `soname` ("libpa1" of libpa.so.1 -> "libpa2" for libpa.so.2,
/// "libamdhip64-5" -> "libamdhip64-6"); "" when `package` is not named after its SONAME.
std::string NextPackageName(std::string_view package, std::string_view soname, std::string_view next_soname);

}  // namespace rocm_audit
