// The CMake packages of the audited tree: every walked <Name>Config.cmake or
// <name>-config.cmake, evaluated (in parallel) as find_package() would load it from the
// installed system, and its dependencies located.
#pragma once

#include <string>
#include <vector>

#include "audit/cmake/package_config.h"
#include "audit/fs/rooted_fs.h"
#include "audit/fs/walk.h"

namespace rocm_audit {

struct AuditedPackage {
  size_t file = 0;  ///< index of its config in the walked files
  CMakePackage package;
};

/// `prefixes` are --cmake-prefix-path entries (paths of the installed system); `has_base`:
/// `fs` is a whole system (not --no-base), whose pkg-config answers for the consumer's.
std::vector<AuditedPackage> EvaluateCMakePackages(const WalkedFiles& files, const RootedFs& fs,
                                                  const std::vector<std::string>& prefixes, unsigned jobs,
                                                  bool has_base = true);

}  // namespace rocm_audit
