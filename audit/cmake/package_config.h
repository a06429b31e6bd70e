// CMake packages under the audited paths: which files are package configs (what
// find_package(<Name> CONFIG) loads), how each is evaluated (its version file first, with
// the variables find_package sets), and where the dependencies it asks for would be found.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "audit/cmake/evaluation.h"
#include "audit/cmake/evaluator.h"
#include "audit/cmake/installed_files.h"

namespace rocm_audit {

/// "<Name>Config.cmake" -> Name, "<name>-config.cmake" -> name; nullopt for other files.
std::optional<std::string> ConfigPackageName(std::string_view file_name);

/// The installation prefix find_package() would have searched to find a config in
/// `config_dir` ("/usr/lib/x86_64-linux-gnu/cmake/hip" -> "/usr"); `config_dir` itself
/// when it is in none of the places find_package() looks.
std::string PackagePrefixOf(std::string_view config_dir, std::string_view name);

/// Whether find_package(<name>) can find a config in `config_dir` below some prefix: the
/// directory (or, for a cmake/CMake directory, its parent) is named after the package.
/// hiprand-fortran-config.cmake in cmake/hiprand/ is not: hiprand's config includes it.
bool IsFindPackagePosition(std::string_view config_dir, std::string_view name);

/// find_package()'s search of one prefix for <name>'s config file (case-insensitive name
/// directories, lib/<arch>, lib*, share, cmake/CMake subdirectories).
std::optional<std::string> FindConfigUnder(const std::string& prefix, const std::string& name,
                                           const InstalledFiles& files);

struct LocatedDependency {
  CMakeDependency request;
  std::string found;                  ///< the config (or "Find<Name>.cmake of CMake"); "" when not found
  std::vector<std::string> searched;  ///< prefixes looked in, in order
};

struct CMakePackage {
  std::string name;
  std::string config;   ///< installed path of the config file
  std::string prefix;   ///< installed path of the prefix it belongs to
  std::string version;  ///< PACKAGE_VERSION from the version file, "" without one
  std::string version_file;
  CMakeEvaluation evaluation;
  std::vector<LocatedDependency> dependencies;
};

/// Evaluates the config at installed path `config` as find_package(<name> CONFIG REQUIRED)
/// would load it, with no components and no version requested.
CMakePackage EvaluatePackage(const std::string& name, const std::string& config, const InstalledFiles& files,
                             const EvaluatorLimits& limits = {});

/// Where each package's dependencies would be found: another audited package, a HINTS or
/// PATHS entry, one of `prefixes` (--cmake-prefix-path, then the installed system's
/// /usr/local, /usr and / when `system` is set), or a Find module of CMake.
void LocateDependencies(std::vector<CMakePackage*> packages, const std::vector<std::string>& prefixes,
                        bool system, const InstalledFiles& files);

}  // namespace rocm_audit
