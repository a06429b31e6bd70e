// find_package()'s search for the dependencies packages ask for: where each would be found
// (another audited package, a HINTS or PATHS entry, one of the search prefixes, or a Find
// module of CMake), whether its version file accepts the version asked for, and which
// imported targets it brings. Found configs are evaluated when asked for, audited or not
// (configs outside the audited ones a bounded number), each once per request in a run.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "audit/cmake/installed_files.h"
#include "audit/cmake/package_config.h"

namespace rocm_audit {

/// find_package()'s search of one prefix for a name's config (FindConfigUnder), each prefix
/// and name looked up once per run: where an audited config is found from and where each
/// dependency is found search the same prefixes for the same names, and every glob of a
/// lib*/ or share/ directory reads the directory again. Not for use from several threads.
class ConfigSearch {
 public:
  explicit ConfigSearch(const InstalledFiles& files) : files_(files.RememberingGlobs()) {}

  /// FindConfigUnder(prefix, name, files), remembered.
  const std::optional<std::string>& Under(const std::string& prefix, const std::string& name);
  /// How many (prefix, name) searches read the prefix's directories (FindConfigUnder): those
  /// its listings could not rule out.
  size_t searches() const { return searches_; }

 private:
  /// What a prefix's directories hold, read once for every name asked of it: each audited
  /// directory is a prefix of the consumer's CMAKE_PREFIX_PATH, so every config's name is
  /// asked of every one of them (FoundAs, each dependency), N x N searches.
  struct Listed {
    /// Lower-case names of what FindConfigUnder's globs list: the prefix's entries and those
    /// of each lib*/ and share/ directory and its cmake/ below it, sorted.
    std::vector<std::string> entries;
    std::vector<InstalledFiles::Listing> config_dirs;  ///< the prefix, its cmake/ and CMake/
  };
  const Listed& ListedAt(const std::string& prefix);
  /// False only when FindConfigUnder(prefix, name) finds nothing: no entry the globs list
  /// starts with the name, no config file of the name in the prefix or its cmake/ CMake/.
  bool MayHold(const std::string& prefix, const std::string& name);

  const InstalledFiles files_;  ///< remembering its globs: each directory read once a run
  std::map<std::pair<std::string, std::string>, std::optional<std::string>> found_;
  std::map<std::string, Listed> listed_;
  size_t searches_ = 0;
};

/// find_package() of each dependency, answered as the config asking for it runs (CMake loads
/// the dependency's config at that call): located, its config evaluated once per request
/// (config, components) in a run, audited or not, with its own dependencies answered the
/// same way, depth first. Each evaluation is remembered, so the audited packages and what
/// they find cost one evaluation each, in one pass. A config that asks for one still being
/// evaluated above it (a cycle) gets it unevaluated, as one found too deep. Not for use from
/// several threads: the first request decides what a package in a cycle sees, so the order
/// is the audited packages' order.
class DependencyLocator final : public DependencyResolver {
 public:
  /// `audited`: the packages to evaluate, each with its name and config set.
  /// `prefixes`: --cmake-prefix-path (its first `given`), then the audited prefixes. The
  /// consumer's CMAKE_PREFIX_PATH is --cmake-prefix-path when given, and otherwise the
  /// audited prefixes (ROCm's documentation has consumers put its install prefix there);
  /// `system`: the installed system's PATH-derived and system prefixes (/usr/local, /usr, /,
  /// /opt, ...) are searched too. find_package()'s order: <Name>_DIR, CMAKE_PREFIX_PATH,
  /// HINTS, PATH, CMAKE_SYSTEM_PREFIX_PATH, PATHS;
  /// `configs`: the search of the prefixes, shared with whoever searched them before.
  DependencyLocator(std::vector<CMakePackage*> audited, std::vector<std::string> prefixes, size_t given,
                    bool system, const InstalledFiles& files, ConfigSearch& configs);
  ~DependencyLocator() override;

  /// Evaluates each audited package not evaluated yet as a dependency of one before it,
  /// and fills in the `dependencies` of each.
  void EvaluateAudited();

  Answer Resolve(const CMakeDependency& d, const std::map<std::string, CMakeDefinition>& commands,
                 const CallerScope& caller) override;

  /// Configs outside the audited ones evaluated so far.
  size_t evaluated() const { return outside_; }
  /// Package evaluations so far, audited or not: each once per request.
  size_t evaluations() const { return evaluations_; }

 private:
  /// A config evaluated for one request, and what a consumer that finds it has of it and of
  /// everything below it.
  struct Node {
    CMakePackage* package = nullptr;  ///< audited, or `owned`
    std::unique_ptr<CMakePackage> owned;
    bool done = false;              ///< false while it is evaluated (a request for it now is a cycle)
    TargetNames targets;            ///< its own and its required dependencies'
    bool known = false;             ///< `targets` is all it and they define
    SharedDefinitions definitions;  ///< the commands it and its dependencies define
    std::string missing_below;      ///< LocatedDependency::missing_below of a dependency found here
    /// The module whose include() found it nowhere, when that is `missing_below` (at any depth):
    /// it holds for a caller whose CMAKE_MODULE_PATH lacks the module too.
    std::string missing_module;
    /// The module command called before its module was included, when that is `missing_below`
    /// (at any depth): it holds for a caller that had not included the module either.
    std::string missing_command;
    /// Its targets and its dependencies' that fail a consumer's generate step, with why: one
    /// names in an interface expression a target none of them defines (adios2 2.10's
    /// adios2::adios2sys_private, $<TARGET_OBJECTS:adios2sys_objects>), or links one that
    /// fails so, at any depth. Null for none.
    std::shared_ptr<const UnusableTargets> unusable;
  };
  /// The node of `key` evaluated (now, when it is not yet); null when it cannot be: a cycle,
  /// too deep, or past the bound on configs outside the audited ones.
  const Node* Evaluated(const std::string& key, const std::string& name, const std::string& config,
                        const CMakeDependency* asked, SharedDefinitions commands = nullptr,
                        const std::vector<std::pair<std::string, CMakeValue>>& variables = {},
                        const std::vector<std::string>& targets = {});
  void Finish(Node& n);
  /// Fills `p.dependencies`, one for each find_package() its evaluation made (all answered
  /// by now: remembered).
  void LocateDependencies(CMakePackage& p);
  /// Where `d` is found, and what its evaluation brings (evaluated now if need be).
  /// `commands` and `caller`: the caller's, at the call (null when located again
  /// afterwards: the evaluation `d.commands_from`, `d.caller_variables` and
  /// `d.caller_targets` name, if any, is taken again). `absent`, when given, is pointed at
  /// the targets the evaluation found absent (CMakeEvaluation::absent_targets_tested).
  LocatedDependency LocateAndEvaluate(const CMakeDependency& d,
                                      const std::map<std::string, CMakeDefinition>* commands = nullptr,
                                      const CallerScope* caller = nullptr,
                                      const std::set<std::string>** absent = nullptr);
  /// `q`, or the node of its config evaluated with the caller's values of the variables its
  /// conditions read unset and the caller's targets among those it found absent (`caller`:
  /// the caller's scope, or null for those `d` recalls); `key` becomes that node's.
  const Node* WithCallersScope(const Node* q, std::string* key, const CMakeDependency& d,
                               LocatedDependency& l, const CallerScope* caller);
  /// The CMAKE_MODULE_PATH `d` was called with may hold `module`.cmake (unknown: it may).
  bool MayHoldModule(const CMakeDependency& d, const std::string& module) const;
  /// Where find_package() finds `d`: Search(), once per distinct call in a run.
  LocatedDependency Locate(const CMakeDependency& d);
  LocatedDependency Search(const CMakeDependency& d);
  const VersionVerdict& Verdict(const CMakeDependency& d, const std::string& config, bool module);
  /// True when `l` is CMake's Find module of `d` and that module, evaluated in the installed
  /// world, finds nothing; `l` is then not found.
  bool CMakeModuleFindsNone(const CMakeDependency& d, LocatedDependency& l);
  std::shared_ptr<const std::vector<std::string>> MachineVariables(const std::string& name);

  std::vector<CMakePackage*> audited_;
  std::map<std::string, CMakePackage*> audited_at_;  ///< by config, the first of audited_
  std::vector<std::string> prefix_path_;             ///< the consumer's CMAKE_PREFIX_PATH
  size_t given_prefixes_;                            ///< its first ones, from --cmake-prefix-path
  std::vector<std::string> path_;    ///< the PATH-derived prefixes, when an installed system is given
  std::vector<std::string> system_;  ///< CMAKE_SYSTEM_PREFIX_PATH, when an installed system is given
  /// The installed system's own CMake module directory (/usr/share/cmake-<version>/Modules,
  /// the newest); "" when there is no installed system or it has no CMake.
  std::string cmake_modules_;
  /// The consumer's CMake (the installed system's, else this one's) gives the caller its
  /// PACKAGE_PREFIX_DIR back after a config (3.30 and later).
  bool restores_prefix_dir_ = false;
  const InstalledFiles& files_;
  ConfigSearch& configs_;
  std::map<std::string, Node> nodes_;  ///< by config, or config and components asked
  /// How many evaluations with a caller's variables or targets each config had (WithCallersScope).
  std::map<std::string, size_t, std::less<>> with_callers_scope_;
  size_t with_callers_scope_run_ = 0;
  int depth_ = 0;  ///< evaluations in progress, one inside the other
  size_t outside_ = 0, evaluations_ = 0;
  /// What Search() found for each distinct call (Locate), with no request.
  std::map<std::string, LocatedDependency> searched_;
  /// CMakeModuleFindsNone's answers, by module and components asked: what the module found
  /// missing when it decided it finds none, nullopt otherwise (or while it is evaluated).
  std::map<std::string, std::optional<std::string>> module_finds_none_;
  /// MachineVariables' answers, by package name (null where the module cannot be read).
  std::map<std::string, std::shared_ptr<const std::vector<std::string>>> machine_variables_;
  /// (name, config, version, exact) -> what the config's version file says of it
  std::map<std::tuple<std::string, std::string, std::string, bool>, VersionVerdict> verdicts_;
};

}  // namespace rocm_audit
