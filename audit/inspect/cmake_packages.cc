#include "audit/inspect/cmake_packages.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <functional>
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

// Two 64-bit hashes of a text and its length.
struct Digest {
  uint64_t a = 0, b = 0;
  size_t size = 0;
  bool operator==(const Digest&) const = default;
};

Digest DigestOf(const std::string& text) {
  uint64_t fnv = 14695981039346656037ull;  // FNV-1a
  for (unsigned char c : text) fnv = (fnv ^ c) * 1099511628211ull;
  return {std::hash<std::string>{}(text), fnv, text.size()};
}

// The text of what a dependency's evaluation left set, digested once per evaluation of it:
// a map is shared by every package that finds the dependency and never changes, and writing
// out every variable of every dependency of each package in every round (Qt6's modules:
// over a thousand each) repeats the same work. Each map is kept weakly: one freed is
// never taken for another made at its address.
class VariablesDigests {
 public:
  std::string Of(const SharedVariables& variables) {
    auto it = digests_.find(variables.get());
    if (it == digests_.end() || it->second.first.expired()) {
      std::string text;
      for (const auto& [variable, value] : *variables)
        text += variable + (value.known ? "=" + value.text : "?") + '\n';
      const Digest d = DigestOf(text);
      it = digests_.insert_or_assign(variables.get(), std::make_pair(std::weak_ptr(variables), d)).first;
    }
    const Digest& d = it->second.second;
    return std::to_string(d.a) + ' ' + std::to_string(d.b) + ' ' + std::to_string(d.size) + '\n';
  }

 private:
  std::map<const void*, std::pair<std::weak_ptr<const std::map<std::string, CMakeValue>>, Digest>> digests_;
};

// What a package's evaluation read of its dependencies, as one string: when it is the same,
// evaluating the package again gives the same result.
std::string InputsText(const DependencyTargets& d, VariablesDigests& digests) {
  std::string s = d.complete ? "complete\n" : "partial\n";
  for (const std::string& n : d.names) s += n + '\n';
  for (const auto& [name, defined] : d.by_dependency) {
    s += '\n' + name + (defined.known ? " known\n" : " partly\n");
    for (const std::string& t : defined.targets) s += t + '\n';
  }
  for (const auto& [name, p] : d.packages) {
    s += '\n' + name + ' ' + p.version + ' ' + p.config + '\n';
    if (p.definitions)
      for (const auto& [command, definition] : *p.definitions) s += command + ' ';
    if (p.variables) s += digests.Of(p.variables);
    for (const std::string& answer : p.world_answers) s += answer + '\n';
  }
  return s;
}

// InputsText digested: kept for each package between rounds, the text itself (every
// variable of every dependency, for Qt6's modules tens of kB each) would be held by every
// package at once.
using Inputs = Digest;

Inputs InputsOf(const DependencyTargets& d, VariablesDigests& digests) {
  return DigestOf(InputsText(d, digests));
}

// Of the packages whose inputs changed, those none of whose dependencies is also waiting to
// be evaluated again: a package evaluated in the same round as a dependency below it reads
// what that dependency is about to replace, and is evaluated again next round (a chain of
// K levels cost K x K / 2 evaluations). A package in a cycle with another that waits does not
// wait for it; in the last round every one runs.
std::vector<size_t> ReadyOf(const std::vector<size_t>& changed, const std::vector<CMakePackage*>& asked,
                            const DependencyLocator& locator, bool last) {
  std::vector<std::set<const CMakePackage*>> below;
  for (size_t k : changed) below.push_back(locator.AuditedBelow(asked[k]));
  std::vector<size_t> ready;
  for (size_t i = 0; i < changed.size(); ++i) {
    bool waits = false;
    for (size_t j = 0; j < changed.size() && !waits && !last; ++j)
      waits = j != i && below[i].count(asked[changed[j]]) && !below[j].count(asked[changed[i]]);
    if (!waits) ready.push_back(i);
  }
  return ready;
}

// An if(TARGET dep::x) left undecided, a command or a version a dependency defines, is decided
// by the dependency's own evaluation, which may itself wait for its dependencies (Qt5WebKit
// returns at its first dependency whose version it cannot read; Qt5WebKitWidgets reads
// Qt5WebKit's targets). Each package that asked is evaluated again whenever what it reads of
// its dependencies changed, until nothing does: a fixed point, reached in dependency order
// (a package waits one round per level below it, and is evaluated once its dependencies
// are). A cycle that never settles stops at the bound.
void ReevaluateToFixedPoint(const std::vector<CMakePackage*>& all, DependencyLocator& locator,
                            const InstalledFiles& installed, unsigned jobs, CMakeRunStats& stats) {
  constexpr int kMaxRounds = 16;
  std::vector<CMakePackage*> asked;
  for (CMakePackage* p : all)
    if (p->asked_dependency_targets) asked.push_back(p);
  VariablesDigests digests;
  std::vector<Inputs> read(asked.size(), InputsOf({}, digests));  // the first evaluation read nothing
  // Whose inputs may have changed since they were last read: at first every one; then those
  // the locator collected anew (above a package evaluated again) and those that waited. The
  // others read the same as before: collecting and hashing them again was a round's cost
  // for every package (Qt6's modules: every variable of every dependency).
  std::vector<char> look(asked.size(), 1);
  for (int round = 0; round < kMaxRounds; ++round) {
    std::vector<size_t> changed;
    std::vector<DependencyTargets> inputs;
    std::vector<Inputs> reads;
    for (size_t k = 0; k < asked.size(); ++k) {
      if (!look[k]) continue;
      DependencyTargets d = TargetsOfDependencies(*asked[k]);
      Inputs now = InputsOf(d, digests);
      if (now == read[k]) continue;
      changed.push_back(k);
      inputs.push_back(std::move(d));
      reads.push_back(now);
    }
    if (changed.empty()) return;
    const std::vector<size_t> ready = ReadyOf(changed, asked, locator, round + 1 == kMaxRounds);
    for (size_t i : ready) read[changed[i]] = reads[i];
    ParallelFor(ready.size(), jobs, [&](size_t r) {
      CMakePackage& p = *asked[changed[ready[r]]];
      p = ReevaluatePackage(p, installed, inputs[ready[r]]);
    });
    std::vector<CMakePackage*> evaluated;
    for (size_t i : ready) evaluated.push_back(asked[changed[i]]);
    locator.Locate(evaluated);
    std::fill(look.begin(), look.end(), 0);
    for (size_t k : changed) look[k] = 1;  // those that waited, and those evaluated (collected anew)
    for (size_t k = 0; k < asked.size(); ++k) look[k] |= locator.CollectedAnew(asked[k]);
    stats.rounds = round + 1;
    stats.evaluations += ready.size();
  }
}

// Where the world's linker finds each -l<name> of the package's link interfaces.
void FindLinkedLibraries(CMakePackage& p, const std::vector<std::string>& dirs, const InstalledFiles& files) {
  for (const CMakeTarget& t : p.evaluation.targets) {
    auto links = t.properties.find("INTERFACE_LINK_LIBRARIES");
    if (!t.imported || links == t.properties.end() || !links->second.known) continue;
    for (const std::string& item : InstallInterfaceItems(links->second.text))
      if (std::string name = LinkedLibraryName(item); !name.empty() && !p.linked_libraries.count(name))
        p.linked_libraries[name] = FindLinkedLibrary(name, dirs, files);
  }
}

}  // namespace

std::vector<AuditedPackage> EvaluateCMakePackages(const WalkedFiles& files, const RootedFs& fs,
                                                  const CMakeConsumer& consumer, unsigned jobs,
                                                  CMakeRunStats* stats) {
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
  ParallelFor(packages.size(), jobs, [&](size_t k) {
    AuditedPackage& p = packages[k];
    p.package = EvaluatePackage(p.package.name, configs[k], installed);
  });

  std::vector<CMakePackage*> all;
  for (AuditedPackage& p : packages) all.push_back(&p.package);
  DependencyLocator locator(all, search, prefixes.size(), system, installed, search_configs);
  locator.Locate(all);
  counted.evaluations = packages.size();
  ReevaluateToFixedPoint(all, locator, installed, jobs, counted);
  counted.evaluations += locator.evaluated();
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
  // commands each dependency left (copied into every package that finds it) and the passes
  // kept for evaluating again. No check reads them.
  for (CMakePackage* p : all) {
    p->passes = {};
    for (LocatedDependency& l : p->dependencies) l.variables = {}, l.definitions = {};
  }
  return packages;
}

}  // namespace rocm_audit
