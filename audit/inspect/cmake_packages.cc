#include "audit/inspect/cmake_packages.h"

#include <algorithm>
#include <filesystem>

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

}  // namespace

std::vector<AuditedPackage> EvaluateCMakePackages(const std::vector<WalkedFile>& files, const RootedFs& fs,
                                                  const std::vector<std::string>& prefixes, unsigned jobs) {
  // Audited prefixes no root layer holds are read where they are.
  std::vector<std::string> outside, audited;
  for (const WalkedFile& f : files) {
    std::string prefix = Absolute(f.prefix);
    if (std::find(audited.begin(), audited.end(), prefix) != audited.end()) continue;
    audited.push_back(prefix);
    if (fs.DisplayPath(prefix) == prefix) outside.push_back(prefix);
  }
  InstalledFiles installed(fs, outside);

  std::vector<AuditedPackage> packages;
  for (size_t i = 0; i < files.size(); ++i) {
    if (files[i].kind != FileKind::kCMakePackage) continue;
    // hiprand-fortran-config.cmake in cmake/hiprand/ is no package of its own: find_package()
    // never finds it there; hiprand's config includes it.
    auto name = ConfigPackageName(BaseName(files[i].path));
    if (name && IsFindPackagePosition(DirName(files[i].path), *name))
      packages.push_back({i, {*name, "", "", "", "", {}, {}}});
  }
  ParallelFor(packages.size(), jobs, [&](size_t k) {
    AuditedPackage& p = packages[k];
    p.package =
        EvaluatePackage(p.package.name, installed.InstalledPath(Absolute(files[p.file].path)), installed);
  });

  std::vector<std::string> search = prefixes;
  for (const std::string& a : audited) search.push_back(installed.InstalledPath(a));
  std::vector<CMakePackage*> all;
  for (AuditedPackage& p : packages) all.push_back(&p.package);
  LocateDependencies(all, search, fs.has_root(), installed);
  // An if(TARGET dep::x) left undecided is decided by the dependency's own evaluation.
  std::vector<size_t> asked;
  for (size_t k = 0; k < packages.size(); ++k)
    if (packages[k].package.asked_dependency_targets) asked.push_back(k);
  if (asked.empty()) return packages;
  ParallelFor(asked.size(), jobs, [&](size_t k) {
    CMakePackage& p = packages[asked[k]].package;
    p = EvaluatePackage(p.name, p.config, installed, {}, TargetsOfDependencies(p));
  });
  LocateDependencies(all, search, fs.has_root(), installed);
  return packages;
}

}  // namespace rocm_audit
