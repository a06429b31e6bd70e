// The device-code libraries of one load closure and, for each GPU target, which of them
// serve it (Debian's ROCm 6.4: gfx1200 in hipBLASLt and rocSOLVER, not in rocBLAS).
// Targets are the --require-arch list when given, else every specific target ID any
// library of the closure offers. Closure members outside the audited paths are
// inventoried on first use, through the run's DeviceOfferCache.
#pragma once

#include <string>
#include <vector>

#include "audit/gpu/arch_policy.h"
#include "audit/gpu/device_code.h"
#include "audit/loader/closure.h"
#include "audit/loader/search_path.h"

namespace rocm_audit {

struct TargetSpread {
  TargetId target;
  std::vector<size_t> serving;  ///< indices into DeviceStack::libraries that serve it
  std::vector<size_t> lacking;  ///< and of those that do not
};

struct DeviceStack {
  std::vector<std::string> libraries;      ///< closure members with device code, load order (display paths)
  std::vector<std::string> library_paths;  ///< the same, as real host paths (symlinks resolved)
  std::vector<TargetSpread> targets;

  /// Targets every library serves.
  std::vector<std::string> CommonTargets() const;
};

DeviceStack AnalyzeDeviceStack(const LoadClosure& closure, const LoaderConfig& loader,
                               DeviceOfferCache& offers, const ArchRequirement& requirement);

}  // namespace rocm_audit
