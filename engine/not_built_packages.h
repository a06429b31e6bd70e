// The packages of a source that a build does not build (dpkg-buildpackage -B leaves out the
// Architecture: all packages, -A the architecture-dependent ones, -b with a package excluded
// that one) and that are not installed on the build machine either: a file the audited
// packages need may be one of theirs, and this run cannot tell. What would otherwise be a
// missing file, library or CMake dependency is then a note naming them and saying why it was
// not checked (not-built-sibling), never an error a correct source fails on. dh_rocm_audit
// passes them (--not-built); a package of the source that is installed stands in with its
// installed files instead, and is not named here.
#pragma once

#include <string>
#include <vector>

#include "audit/model/finding.h"
#include "audit/model/rule.h"

namespace rocm_audit {

/// --not-built NAME=WHY: a package installed in the same operation whose files this run does
/// not have, and why ("Architecture: all; dpkg-buildpackage -B builds ...").
struct NotBuiltPackage {
  std::string name;
  std::string why;
};

/// Parses `NAME=WHY` (WHY may be empty; NAME a Debian package name). False with `error`.
bool ParseNotBuiltPackage(const std::string& text, NotBuiltPackage* out, std::string* error);

/// not-built-sibling: a file a package needs that is not found, which a package of its source
/// that this run does not build may ship (a note).
extern const Rule kNotBuiltSiblingRule;

/// Each finding at warning or error that a missing file makes (a CMake config's missing file,
/// library, target or dependency, a library the loader does not find) becomes
/// a not-built-sibling note naming `not_built`, in place; a file's findings stay most severe
/// first. Nothing changes when `not_built` is empty.
void JudgeNeedsOfNotBuiltPackages(const std::vector<NotBuiltPackage>& not_built,
                                  std::vector<Finding>* findings);

}  // namespace rocm_audit
