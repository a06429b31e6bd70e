#include "audit/inspect/cmake_packages.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>

#include "audit/cmake/dependency_locator.h"
#include "audit/cmake/genex.h"
#include "audit/cmake/linker_search.h"
#include "audit/cmake/program_cache.h"
#include "audit/fs/path.h"
#include "audit/support/deep_stack.h"

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

// Where the world's linker finds each -l<name> of the package's link interfaces.
void FindLinkedLibraries(CMakePackage& p, const std::vector<std::string>& dirs, const InstalledFiles& files) {
  for (const CMakeTarget& t : p.evaluation.targets) {
    CMakeValue joined;
    const CMakeValue* links = t.LinkInterface(&joined).first;
    if (!t.imported || !links || !links->known) continue;
    for (const std::string& item : InstallInterfaceItems(links->text))
      if (std::string name = LinkedLibraryName(item); !name.empty() && !p.linked_libraries.count(name))
        p.linked_libraries[name] = FindLinkedLibrary(name, dirs, files);
  }
}

}  // namespace

std::vector<AuditedPackage> EvaluateCMakePackages(const WalkedFiles& files, const RootedFs& fs,
                                                  const CMakeConsumer& consumer, CMakeRunStats* stats) {
  const std::vector<std::string>& prefixes = consumer.prefixes;
  const bool has_base = consumer.has_base;
  // A root layer makes an installed system; `--root /` is one too, without layers.
  const bool system = consumer.installed_system || fs.has_root();
  CMakeRunStats counted;
  const size_t parsed_before = ProgramsParsed();
  const size_t evaluated_before = ListFilesEvaluated();
  // Audited prefixes no root layer holds are read where they are.
  std::vector<std::string> outside, audited;
  for (const std::string& walked_prefix : files.prefixes()) {
    std::string prefix = Absolute(walked_prefix);
    if (std::find(audited.begin(), audited.end(), prefix) != audited.end()) continue;
    audited.push_back(prefix);
    if (fs.DisplayPath(prefix) == prefix) outside.push_back(prefix);
  }
  // Nothing writes to the world during the run: each file's existence is asked once.
  const InstalledFiles installed = InstalledFiles(fs, outside, has_base).RememberingExistence();

  std::vector<std::string> search = prefixes;
  for (const std::string& a : audited) search.push_back(installed.InstalledPath(a));
  std::vector<std::string> search_all = search;
  if (system)
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
  std::vector<CMakePackage*> all;
  for (size_t k = 0; k < packages.size(); ++k) {
    packages[k].package.config = configs[k];
    all.push_back(&packages[k].package);
  }
  // One pass, in the packages' order: each find_package() is answered as it runs, the config
  // it finds evaluated then (once in the run), as CMake loads it. Not in parallel: which of
  // two packages in a cycle sees the other unevaluated depends on which is asked for first.
  DependencyLocator locator(all, search, prefixes.size(), system, installed, search_configs);
  // Evaluations nest (kMaxDependencyDepth), each up to its own bound of nested calls.
  RunOnStack(size_t(64) << 20, [&] { locator.EvaluateAudited(); });
  counted.evaluations = locator.evaluations();
  counted.config_searches = search_configs.searches();
  counted.parses = ProgramsParsed() - parsed_before;
  counted.list_file_evaluations = ListFilesEvaluated() - evaluated_before;
  if (stats) *stats = counted;
  // The linker's directories (a glob of /usr/lib/gcc/<arch>) only when a package links.
  if (has_base && !all.empty()) {
    const std::vector<std::string> linker_dirs = LinkerDefaultDirectories(installed);
    for (CMakePackage* p : all) FindLinkedLibraries(*p, linker_dirs, installed);
  }
  // What only the evaluation reads goes before the files are checked: the variables and
  // commands each dependency left (shared with every package that finds it). No check reads
  // them.
  for (CMakePackage* p : all)
    for (LocatedDependency& l : p->dependencies) l.variables = {}, l.definitions = {};
  return packages;
}

}  // namespace rocm_audit
