// The first stage of a run: PATH arguments that are packages are unpacked, all into one
// private directory (installed together), which then stands in for them as a PATH and as
// the top layer of the installed world (engine/installed_world.h).
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
  std::string tree;                 ///< the set's tree in `dir`: every package unpacked, together
  std::vector<InputPackage> packages;
  std::vector<UnpackProblem> problems;
};

/// Unpacks the packages among `paths` and rewrites `paths` to audit them; sets
/// `relocatable` when a package is relocatable by design (wheels, conda). False with `error`
/// only when the private directory cannot be made.
[[nodiscard]] bool UnpackPackageInputs(std::vector<std::string>* paths, bool* relocatable,
                                       const UnpackLimits& limits, unsigned jobs, PackageInputs* out,
                                       std::string* error);

}  // namespace rocm_audit
