// Whom a package of an installed .deb set depends on, as dpkg resolves its Depends and
// Pre-Depends (deb-control(5)): each name is a package of the set or one installed in the
// base (its dpkg status), by name or by Provides, and what that package depends on counts
// too. An alternative (a | b) is satisfied when any of its names is; a version constraint is
// taken as satisfied by the name. A name that is neither in the set nor installed is open:
// what it would depend on is unknown.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "audit/fs/rooted_fs.h"
#include "checks/check_input.h"

namespace rocm_audit {

/// "libnuma1 (>= 2.0.11), libc6:any | libc6.1" -> libnuma1, libc6, libc6.1 (a field's value,
/// or one relation of it).
std::vector<std::string> RelationNames(const std::string& field);

/// Debian's name for the package of a shared library (policy 8.1): "libnuma.so.1" ->
/// "libnuma1", "libamdhip64.so.6" -> "libamdhip64-6"; a file name past the soname
/// ("libfoo.so.2.0.0") is taken at its soname. "" for a name that is no soname.
std::string DebianLibraryPackage(std::string_view soname);

/// The package of `package`'s Depends that ships `library` by Debian's naming, or "".
std::string DependedLibraryPackage(const PackageOfSet& package, std::string_view library);

/// The Version of package `name` installed per the dpkg status `text` ("" when not installed).
std::string InstalledVersion(std::string_view status_text, const std::string& name);

/// An installed package of the base, from its dpkg status.
struct InstalledPackage {
  std::vector<std::string> depends;  ///< names of Depends and Pre-Depends, alternatives too
};

/// What the packages reached from one package through Depends are.
struct DependsReach {
  std::unordered_set<std::string> packages;  ///< every package reached (of the set or installed)
  std::vector<std::string> open;             ///< names neither in the set nor installed
};

class DependsWorld {
 public:
  /// `set`: the packages being installed; `fs`: the world, whose layers below the top (the set)
  /// are read for the first var/lib/dpkg/status, on first need only.
  DependsWorld(const std::vector<PackageOfSet>& set, const RootedFs& fs) : set_(set), fs_(fs) {}

  /// The packages `from` depends on, directly and through their Depends.
  DependsReach Reach(const PackageOfSet& from);

 private:
  void ReadBase();
  // Packages (of the set, then of the base) called `name` or providing it; false when none.
  bool Follow(const std::string& name, DependsReach* reach, std::vector<std::string>* queue);

  const std::vector<PackageOfSet>& set_;
  const RootedFs& fs_;
  bool base_read_ = false;
  std::map<std::string, InstalledPackage> base_;                    ///< installed, by name
  std::map<std::string, std::vector<std::string>> base_providers_;  ///< virtual name -> packages
};

}  // namespace rocm_audit
