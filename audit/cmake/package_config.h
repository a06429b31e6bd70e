// CMake packages under the audited paths: which files are package configs (what
// find_package(<Name> CONFIG) loads), how each is evaluated (its version file first, with
// the variables find_package sets), and where the dependencies it asks for would be found.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "audit/cmake/evaluation.h"
#include "audit/cmake/evaluator.h"
#include "audit/cmake/installed_files.h"

namespace rocm_audit {

/// CMAKE_LIBRARY_ARCHITECTURE of the consumer, as Debian and Ubuntu on x86-64 set it: where
/// find_package() and pkg-config look below lib/.
constexpr std::string_view kLibraryArchitecture = "x86_64-linux-gnu";

/// The prefixes of the consumer's PATH, taken to be Debian's default for a user (ENV_PATH of
/// /etc/login.defs: /usr/local/bin:/usr/bin:/bin:/usr/local/games:/usr/games), each entry
/// ending in /bin or /sbin made its parent (cmFindPackageCommand::
/// FillPrefixesSystemEnvironment): what find_package(), find_library() and find_path() search
/// on an installed system after HINTS.
const std::vector<std::string>& PathPrefixes();

/// CMAKE_SYSTEM_PREFIX_PATH as Debian 12's CMake 3.25 sets it (Platform/UnixPaths.cmake):
/// /usr/local;/usr;/, CMake's own prefix /usr, CMAKE_INSTALL_PREFIX /usr/local, then
/// /usr/X11R6;/usr/pkg;/opt. Searched after PathPrefixes().
const std::vector<std::string>& SystemPrefixes();

/// "<Name>Config.cmake" -> Name, "<name>-config.cmake" -> name; nullopt for other files.
std::optional<std::string> ConfigPackageName(std::string_view file_name);

/// The name a consumer finds the config at installed path `config` by. find_package(<name>)
/// loads "<name>Config.cmake" only under that exact name, but "<stem>-config.cmake" under
/// every spelling of <stem> in any case, and such a config or its version file may hold to
/// one (PROJ's version file accepts only "PROJ"; VTK's config includes
/// ${CMAKE_FIND_PACKAGE_NAME}-targets.cmake). Of `stem` and the spellings of it that its
/// list files write, the one a plain consumer meets the fewest failures under; `stem` on a tie.
std::string ConsumerPackageName(const std::string& stem, const std::string& config,
                                const InstalledFiles& files, const EvaluatorLimits& limits = {});

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

/// What find_package(<Name> <version> [EXACT]) makes of a config's version file.
struct VersionVerdict {
  bool accepted = true;
  std::string file;     ///< the version file, "" when the config has none
  std::string version;  ///< PACKAGE_VERSION, "" when not known
  std::string why;      ///< why it was not accepted
};

/// Evaluates the version file next to `config` with the variables find_package() sets for
/// `version` ("1.2", or a range "1.2...<2.0"). No version file rejects any version; a
/// verdict that depends on something not known here is taken as accepted.
VersionVerdict CheckVersionFile(const std::string& name, const std::string& config,
                                const std::string& version, bool exact, const InstalledFiles& files,
                                const EvaluatorLimits& limits = {});

/// A target that fails the generate step of whoever links it, because an expression in its
/// interface, or in that of a target its link interface reaches, names a target nobody
/// defines: `missing`, and the sentence that says where.
struct UnusableTarget {
  std::string missing;
  std::string why;
};
/// By the unusable target's name.
using UnusableTargets = std::map<std::string, UnusableTarget>;

struct LocatedDependency {
  CMakeDependency request;
  std::string found;                  ///< the config (or "Find<Name>.cmake of CMake"); "" when not found
  std::vector<std::string> searched;  ///< prefixes looked in, in order
  /// A config that was found but whose version file rejected the requested version.
  struct Rejected {
    std::string config;   ///< its path
    std::string version;  ///< what its version file gives; "" when it has none
    std::string why;
    /// "path, version: 1.0 (why)", with the path as a path of this machine.
    PathText Text() const {
      return HostPath(config) + ", version: " + (version.empty() ? "unknown" : version) + " (" + why + ")";
    }
  };
  /// The configs rejected, in the order find_package() considered them.
  std::vector<Rejected> rejected;
  /// The imported targets the found config defines, with those of its own dependencies;
  /// `targets_known` is false when some of them could not be evaluated (a Find module of
  /// CMake, a dependency not found, too deep).
  TargetNames targets;
  bool targets_known = false;
  std::string version{};  ///< what the found config's version file gives
  /// The functions and macros the found config and its dependencies define (null: none known).
  SharedDefinitions definitions{};
  /// The variables the found config left set (its evaluation's top scope; null: none known).
  CMakeVariables variables{};
  std::vector<std::string> world_answers{};  ///< the found config's (CMakeEvaluation::world_answers)
  /// When `found` is a Find module the package ships: the find_package() calls the module
  /// makes, as found (VTK's FindTBB.cmake loads TBB's config: a consumer of VTK loads it).
  struct Through {
    std::string name, version, found;
  };
  std::vector<Through> through_module{};
  /// When the found config cannot be loaded for want of a required dependency of its own (or
  /// of theirs, transitively), which one and who asks for it: CMake fails the found config's
  /// find_package(), and so this one ("Svg is found nowhere (QuickVectorImage asks for it at
  /// ...Config.cmake:12)"); "" otherwise.
  std::string missing_below{};
  /// The module found nowhere that `missing_below` is about, if it is (Node::missing_module).
  std::string missing_module{};
  /// The module command `missing_below` is about, if it is (Node::missing_command).
  std::string missing_command{};
  /// When no config is found and CMake's own Find<Name>.cmake, evaluated in the installed
  /// world, decides it finds none: what it found missing ("CUPS_INCLUDE_DIR-NOTFOUND, ...").
  std::string module_finds_none{};
  /// The found config was evaluated (perhaps only in part: `targets_known` false): the
  /// targets it reached are what it defines, a target of its namespace it never reached none.
  bool evaluated = false;
  /// CMake's modules the found config and its dependencies included, or CMake's Find module
  /// found (`Find<Name>`, with what it includes); null when unknown.
  std::shared_ptr<const std::vector<std::string>> modules_included{};
  /// Targets the found config or its dependencies define that fail the generate step of any
  /// consumer linking them (DependencyLocator::Node::unusable); null for none.
  std::shared_ptr<const UnusableTargets> unusable_targets{};
};

struct CMakePackage {
  std::string name;
  std::string config;   ///< installed path of the config file
  std::string prefix;   ///< installed path of the prefix it belongs to
  std::string version;  ///< PACKAGE_VERSION from the version file, "" without one
  std::string version_file;
  CMakeEvaluation evaluation;
  std::vector<LocatedDependency> dependencies;
  /// Components a consumer may ask for, each evaluated as asked for; what only asking for
  /// one adds to `evaluation` names the component.
  std::vector<std::string> components{};
  /// The -l<name> its targets' link interfaces ask the linker for (LinkedLibraryName), each
  /// with where the world's linker finds it ("" nowhere); none when the world has no base.
  std::map<std::string, std::string> linked_libraries{};
};

/// Evaluates the config at installed path `config` as find_package(<name> CONFIG REQUIRED)
/// would load it with no version requested: first with no components, then with each
/// component the config offers. Each find_package() it makes is answered by `resolver`
/// (none: its dependencies are not known, and what hangs on them is undecided). `given`:
/// what the caller has as the file runs.
struct GivenVariables {
  /// Variables of the caller's scope (a Find module's CMAKE_MODULE_PATH).
  std::vector<std::pair<std::string, CMakeValue>> variables;
  /// Commands the caller's list files defined (CMake's are global): null for none.
  SharedDefinitions commands;
  /// Targets the caller has (CMakeDependency::caller_targets).
  std::vector<std::string> targets{};
};
CMakePackage EvaluatePackage(const std::string& name, const std::string& config, const InstalledFiles& files,
                             const EvaluatorLimits& limits = {}, DependencyResolver* resolver = nullptr,
                             const GivenVariables& given = {});

/// The components a find_package() call asks for.
struct AskedComponents {
  std::vector<std::string> required;
  std::vector<std::string> optional;
};

/// One evaluation of CMake's own Find<name>.cmake as find_package(<name> [COMPONENTS ...])
/// runs it when no config is found: the plain request's pass alone, no component offered.
CMakeEvaluation EvaluateFindModule(const std::string& name, const std::string& module,
                                   const AskedComponents& asked, const InstalledFiles& files,
                                   const EvaluatorLimits& limits, DependencyResolver* resolver);

/// Evaluates the config as find_package(<name> COMPONENTS <asked.required>
/// OPTIONAL_COMPONENTS <asked.optional> CONFIG) loads it for the package that asks so: one
/// evaluation, no other components.
CMakePackage EvaluatePackageAsked(const std::string& name, const std::string& config,
                                  const AskedComponents& asked, const InstalledFiles& files,
                                  const EvaluatorLimits& limits = {}, DependencyResolver* resolver = nullptr,
                                  const GivenVariables& given = {});

}  // namespace rocm_audit
