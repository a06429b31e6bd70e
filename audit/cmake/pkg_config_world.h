// pkg-config's answer in the audited world: whether `pkg-config --exists` finds a module
// there, from the world's own .pc files, as pkgconf 1.8 (Debian 12's pkg-config) decides it.
// FindPkgConfig's pkg_check_modules/pkg_search_module ask exactly that, so a config that
// asks pkg-config for a module (Qt 6's FindMtdev) is judged by what that machine has.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "audit/cmake/installed_files.h"

namespace rocm_audit {

/// pkg-config's default search path on the world (pkgconf's pc_path for the library
/// architecture: /usr/local first, then /usr's lib/<arch>, lib, share).
std::vector<std::string> PkgConfigDefaultPath();

/// pkgconf's version comparison (rpmvercmp): <0, 0 or >0.
int ComparePkgConfigVersions(const std::string& a, const std::string& b);

struct PkgConfigAnswer {
  bool found = false;
  std::string version;  ///< the module's Version:, when found
  std::string pc_file;  ///< the module's .pc, when found
  std::string why;      ///< when not found: the first module or version pkg-config misses
};

/// `pkg-config --exists "<spec>"` on the world, `spec` being "<name>" or
/// "<name> <op> <version>" (op =, !=, <, <=, >, >=): the module's .pc file in `path`, every
/// module its Requires and Requires.private name (pkgconf resolves both for --exists), and
/// their versions. Bounded: 64 modules deep, each .pc file at most 1 MB.
PkgConfigAnswer PkgConfigExists(const std::string& spec, const std::vector<std::string>& path,
                                const InstalledFiles& files);

}  // namespace rocm_audit
