// What the package database of an installed system says a package owns: the files that
// installing a new version of the package removes from that system when the new version
// does not ship them (dpkg(1), pacman(8) and Portage alike: files of the old version that the
// new one lacks are deleted). dpkg's, pacman's and Portage's databases are read; an RPM
// database is an SQLite or Berkeley DB file, which no dependency of this project reads.
#pragma once

#include <string>
#include <unordered_set>
#include <vector>

namespace rocm_audit {

/// A package being installed, as its package manager names its installed copy.
struct PackageName {
  std::string name;
  std::string architecture;  ///< "" when unknown: both NAME.list and NAME:*.list are read
};

/// The paths (of the installed system, "/usr/lib/libx.a") that the installed copies of
/// `packages` own in the system at host directory `root`, directories left out: dpkg's
/// var/lib/dpkg/info/NAME.list (or NAME:ARCH.list for a Multi-Arch: same package), pacman's
/// var/lib/pacman/local/NAME-VERSION/files, Portage's var/db/pkg/CATEGORY/NAME-VERSION/CONTENTS
/// (NAME may be CATEGORY/NAME). Empty when the system has no such database or none of them
/// installed. A database file that is not a regular file is not read: never blocks.
std::unordered_set<std::string> InstalledFilesOf(const std::string& root,
                                                 const std::vector<PackageName>& packages);

}  // namespace rocm_audit
