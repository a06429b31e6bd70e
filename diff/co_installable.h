// Whether a library package of OLD stays installed beside NEW's packages, as dpkg decides when
// NEW is installed over OLD: a package of the same name is upgraded (its files replaced);
// one that a package of NEW Conflicts with or Breaks, or that Conflicts with or Breaks one of
// NEW's, is removed or deconfigured (dpkg src/main/archives.c check_conflict,
// src/main/depcon.c; Policy 7.4, 7.3); and one whose library file a package of NEW Replaces
// and ships itself loses that file (Policy 7.6.1). Anything else stays: Debian renames a
// library package with its SONAME for this (Policy 8.1).
#pragma once

#include <string>

#include "diff/side.h"

namespace rocm_audit {

struct OldPackageFate {
  bool stays = false;
  /// When a relation removes it: the relation, as "libt2 Conflicts: libt1 (<< 2.0)".
  std::string removed_by;
};

/// The fate of the package of OLD that holds `old_path` (a library of OLD, its path below
/// the side) when NEW is installed; not staying when either side is no package.
OldPackageFate FateOfOldPackage(const Side& old_side, const Side& new_side, const std::string& old_path);

}  // namespace rocm_audit
