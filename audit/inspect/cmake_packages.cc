#include "audit/inspect/cmake_packages.h"

#include <algorithm>
#include <filesystem>

#include "audit/cmake/dependency_locator.h"
#include "audit/fs/path.h"
#include "audit/support/parallel.h"

namespace rocm_audit {
namespace {

// Walk paths may be relative to the working directory; list files see absolute ones.
std::string Absolute(const std::string& path) {
  std::error_code ec;
  std::string a = std::filesystem::absolute(path, ec).string();
  return NormalizePath(ec ? path : a);
}

// The path by which find_package(<name>), searching `search`, finds the config at
// `config`: another path to the same file when a directory on the way is a symlink
// (lib/cmake/X -> ../../opt/x/lib/cmake/X). CMake does not resolve it, so the prefix a
// config computes from CMAKE_CURRENT_LIST_FILE is the link's. `config` itself when its own
// prefix is searched, or find_package() finds it by no path or another file first.
std::string FoundAs(const std::string& name, const std::string& config,
                    const std::vector<std::string>& search, const InstalledFiles& installed,
                    ConfigSearch& configs) {
  const std::string own = PackagePrefixOf(DirName(config), name);
  if (IsFindPackagePosition(DirName(config), name) &&
      std::find(search.begin(), search.end(), own) != search.end())
    return config;
  const auto real = installed.RealPath(config);
  if (!real) return config;
  for (const std::string& prefix : search) {
    const std::optional<std::string>& found = configs.Under(prefix, name);
    if (!found) continue;
    return installed.RealPath(*found) == real ? *found : config;
  }
  return config;
}

}  // namespace

std::vector<AuditedPackage> EvaluateCMakePackages(const WalkedFiles& files, const RootedFs& fs,
                                                  const std::vector<std::string>& prefixes, unsigned jobs) {
  // Audited prefixes no root layer holds are read where they are.
  std::vector<std::string> outside, audited;
  for (const std::string& walked_prefix : files.prefixes()) {
    std::string prefix = Absolute(walked_prefix);
    if (std::find(audited.begin(), audited.end(), prefix) != audited.end()) continue;
    audited.push_back(prefix);
    if (fs.DisplayPath(prefix) == prefix) outside.push_back(prefix);
  }
  InstalledFiles installed(fs, outside);

  std::vector<std::string> search = prefixes;
  for (const std::string& a : audited) search.push_back(installed.InstalledPath(a));
  std::vector<std::string> search_all = search;
  if (fs.has_root())
    for (const char* p : {"/usr/local", "/usr", "/"}) search_all.push_back(p);

  // One search of the prefixes for both: where each audited config is found from, and
  // where its dependencies are.
  ConfigSearch search_configs(installed);
  std::vector<AuditedPackage> packages;
  std::vector<std::string> configs;  // as find_package() finds each
  for (size_t i = 0; i < files.size(); ++i) {
    if (files.kind(i) != FileKind::kCMakePackage) continue;
    auto name = ConfigPackageName(BaseName(files.path(i)));
    if (!name) continue;
    std::string config = FoundAs(*name, installed.InstalledPath(Absolute(std::string(files.path(i)))),
                                 search_all, installed, search_configs);
    // hiprand-fortran-config.cmake in cmake/hiprand/ is no package of its own: find_package()
    // never finds it there; hiprand's config includes it.
    if (!IsFindPackagePosition(DirName(config), *name)) continue;
    *name = ConsumerPackageName(*name, config, installed);
    packages.push_back({i, {*name, "", "", "", "", {}, {}}});
    configs.push_back(config);
  }
  ParallelFor(packages.size(), jobs, [&](size_t k) {
    AuditedPackage& p = packages[k];
    p.package = EvaluatePackage(p.package.name, configs[k], installed);
  });

  std::vector<CMakePackage*> all;
  for (AuditedPackage& p : packages) all.push_back(&p.package);
  DependencyLocator locator(all, search, fs.has_root(), installed, search_configs);
  locator.Locate(all);
  // An if(TARGET dep::x) left undecided is decided by the dependency's own evaluation; only
  // the passes that asked run again, and only the packages evaluated again have their
  // dependencies located again.
  std::vector<CMakePackage*> asked;
  for (CMakePackage* p : all)
    if (p->asked_dependency_targets) asked.push_back(p);
  // A config evaluated with its dependencies may get further (Qt5WebKit returns at the first
  // dependency whose version it cannot read) and ask for more, and a dependency evaluated
  // again may define more targets (Qt5WebKit's, for Qt5WebKitWidgets): it runs again, a
  // bounded number of times.
  constexpr int kMaxRounds = 4;
  for (int round = 0; round < kMaxRounds && !asked.empty(); ++round) {
    std::vector<size_t> had(asked.size());
    ParallelFor(asked.size(), jobs, [&](size_t k) {
      CMakePackage& p = *asked[k];
      DependencyTargets dependencies = TargetsOfDependencies(p);
      had[k] = dependencies.packages.size() + dependencies.names.size();
      p = ReevaluatePackage(p, installed, dependencies);
    });
    locator.Locate(asked);
    std::vector<CMakePackage*> again;
    for (size_t k = 0; k < asked.size(); ++k) {
      DependencyTargets now = TargetsOfDependencies(*asked[k]);
      if (now.packages.size() + now.names.size() > had[k]) again.push_back(asked[k]);
    }
    asked = std::move(again);
  }
  return packages;
}

}  // namespace rocm_audit
