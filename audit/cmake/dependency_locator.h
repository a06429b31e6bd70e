// find_package()'s search for the dependencies packages ask for: where each would be found
// (another audited package, a HINTS or PATHS entry, one of the search prefixes, or a Find
// module of CMake), whether its version file accepts the version asked for, and which
// imported targets it brings. Configs found outside the audited ones are evaluated too (a
// bounded number, each once per run), so that every dependency's targets are known.
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

class DependencyLocator {
 public:
  /// `prefixes`: --cmake-prefix-path (its first `given`), then the audited prefixes. The
  /// consumer's CMAKE_PREFIX_PATH is --cmake-prefix-path when given, and otherwise the
  /// audited prefixes (ROCm's documentation has consumers put its install prefix there);
  /// `system`: the installed system's PATH-derived and system prefixes (/usr/local, /usr, /,
  /// /opt, ...) are searched too. find_package()'s order: <Name>_DIR, CMAKE_PREFIX_PATH,
  /// HINTS, PATH, CMAKE_SYSTEM_PREFIX_PATH, PATHS;
  /// `configs`: the search of the prefixes, shared with whoever searched them before.
  DependencyLocator(std::vector<CMakePackage*> audited, std::vector<std::string> prefixes, size_t given,
                    bool system, const InstalledFiles& files, ConfigSearch& configs);
  ~DependencyLocator();

  /// Fills `dependencies` of each of `packages` (audited ones, perhaps re-evaluated since an
  /// earlier call), then the targets every audited package's dependencies define. What was
  /// evaluated or judged before is kept: a config outside the audited ones is evaluated once,
  /// a version file once per version asked.
  void Locate(const std::vector<CMakePackage*>& packages);

  /// The audited packages `p`'s dependencies lead to, through configs outside the audited
  /// ones too: those whose evaluation what `p` reads of its dependencies comes from. `p`
  /// itself is among them only through a cycle.
  std::set<const CMakePackage*> AuditedBelow(const CMakePackage* p) const;
  /// Whether the last Locate() collected `p`'s dependencies anew: unless it did, what `p`
  /// has of them (TargetsOfDependencies) is what it had before.
  bool CollectedAnew(const CMakePackage* p) const { return stale_.count(p) > 0; }
  /// Configs outside the audited ones evaluated so far.
  size_t evaluated() const { return evaluated_.size(); }

 private:
  /// The packages (audited or not) each package's dependencies are found at.
  std::vector<const CMakePackage*> Below(const CMakePackage* p) const;
  /// The audited packages that lead to one of `changed` (or are one).
  std::set<const CMakePackage*> LeadingTo(const std::vector<CMakePackage*>& changed) const;
  void LocateAll(CMakePackage* p, int depth);
  LocatedDependency Locate(const CMakeDependency& d, int depth);
  const VersionVerdict& Verdict(const CMakeDependency& d, const std::string& config, bool module);
  /// The package evaluated at `key`: a config path, or EvaluatedKey() of one asked with components.
  const CMakePackage* PackageAt(const std::string& key) const;
  bool TargetsOf(const CMakePackage* p, std::set<const CMakePackage*>& visiting, std::set<std::string>& out);
  /// What a consumer has of a dependency found at `q` and of the dependencies below it,
  /// collected once per Locate() for every package that finds `q`: before, each collected
  /// it anew (Qt6's modules each walked Qt6Core's, Qt6Gui's ... targets and commands).
  struct Collected {
    std::set<std::string> targets;
    bool known = false;
    SharedDefinitions definitions;
    std::set<const CMakePackage*> reached;  ///< `q` and every package below it
  };
  /// What `q`'s evaluation left set, one copy shared by every package that finds it until `q`
  /// is evaluated again.
  const SharedVariables& VariablesOf(const CMakePackage* q);
  const Collected& CollectedOf(const CMakePackage* q, std::map<const CMakePackage*, Collected>& memo);
  /// LocatedDependency::missing_below of a dependency found at `p`.
  std::string MissingBelow(const CMakePackage* p, std::set<const CMakePackage*>& visiting) const;
  /// The functions and macros `p` and its dependencies define.
  void DefinitionsOf(const CMakePackage* p, std::set<const CMakePackage*>& visiting,
                     std::map<std::string, CMakeDefinition>& out);

  std::vector<CMakePackage*> audited_;
  std::map<std::string, const CMakePackage*> audited_at_;  ///< by config, the first of audited_
  std::vector<std::string> prefix_path_;                   ///< the consumer's CMAKE_PREFIX_PATH
  size_t given_prefixes_;                                  ///< its first ones, from --cmake-prefix-path
  std::vector<std::string> path_;    ///< the PATH-derived prefixes, when an installed system is given
  std::vector<std::string> system_;  ///< CMAKE_SYSTEM_PREFIX_PATH, when an installed system is given
  const InstalledFiles& files_;
  ConfigSearch& configs_;
  std::map<std::string, std::unique_ptr<CMakePackage>> evaluated_;  ///< by EvaluatedKey()
  std::map<const CMakePackage*, SharedVariables> variables_;        ///< VariablesOf()
  std::set<const CMakePackage*> stale_;  ///< the audited packages the last Locate() collected anew
  /// (name, config, version, exact) -> what the config's version file says of it
  std::map<std::tuple<std::string, std::string, std::string, bool>, VersionVerdict> verdicts_;
};

/// The targets a consumer has from `package`'s required dependencies (after a Locate).
DependencyTargets TargetsOfDependencies(const CMakePackage& package);

}  // namespace rocm_audit
