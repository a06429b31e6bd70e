// The first stage of a run: PATH arguments that are packages are unpacked, all into one
// private directory (installed together), which then stands in for them as a PATH and, when
// the run has --root layers, as the top layer (the packages installed on that system).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "audit/model/report.h"
#include "audit/unpack/private_dir.h"
#include "audit/unpack/unpack.h"

namespace rocm_audit {

struct PackageInputs {
  std::unique_ptr<PrivateDir> dir;  ///< null when no PATH is a package
  std::vector<InputPackage> packages;
  std::vector<UnpackProblem> problems;
};

/// Unpacks the packages among `paths` and rewrites `paths` and `roots` to audit them; sets
/// `relocatable` when a package is relocatable by design (wheels, conda). False with `error`
/// only when the private directory cannot be made.
bool UnpackPackageInputs(std::vector<std::string>* paths, std::vector<std::string>* roots, bool* relocatable,
                         const UnpackLimits& limits, PackageInputs* out, std::string* error);

}  // namespace rocm_audit
