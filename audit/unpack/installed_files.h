// What dpkg's database of an installed system says a package owns: the files that
// installing a new version of the package removes from that system when the new version
// does not ship them (dpkg(1): files of the old version that the new one lacks are deleted).
#pragma once

#include <string>
#include <unordered_set>
#include <vector>

namespace rocm_audit {

/// A package being installed, as dpkg names its installed copy.
struct PackageName {
  std::string name;
  std::string architecture;  ///< "" when unknown: both NAME.list and NAME:*.list are read
};

/// The paths (of the installed system, "/usr/lib/libx.a") that the installed copies of
/// `packages` own in the system at host directory `root` (var/lib/dpkg/info/NAME.list, or
/// NAME:ARCH.list for a Multi-Arch: same package), directories left out. Empty when the
/// system has no dpkg database or none of them installed.
std::unordered_set<std::string> InstalledFilesOf(const std::string& root,
                                                 const std::vector<PackageName>& packages);

}  // namespace rocm_audit
