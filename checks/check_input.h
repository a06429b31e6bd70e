// What a check sees, one struct per stage: a file on its own, a loadable object with its
// load closure, or the whole audited tree. Checks read these and append findings; they
// never compute loader or device facts themselves (audit/ does) and never print.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "audit/fs/walk.h"
#include "audit/gpu/arch_policy.h"
#include "audit/inspect/cmake_packages.h"
#include "audit/inspect/inspected_file.h"
#include "audit/inspect/load_facts.h"
#include "audit/loader/search_path.h"
#include "audit/loader/symbol_index.h"
#include "audit/model/boxed.h"
#include "audit/support/path_text.h"
#include "audit/unpack/unpack.h"

namespace rocm_audit {

/// A path in a sentence of a finding as the installed system names it (RootedFs::DisplayPath):
/// below a root, the installed system's path, words the report leaves as they are; else a path
/// of this machine, which the report shows as it shows paths.
inline PathText InstalledPathText(const RootedFs& fs, const std::string& host_path) {
  std::string installed = fs.DisplayPath(host_path);
  return installed == host_path ? HostPath(host_path) : PathText(std::move(installed));
}

/// A package of the set being installed (design.md §1.1), for the hints that name where a
/// missing library is: what it depends on and what it ships.
struct PackageOfSet {
  std::string name;
  std::vector<std::string> depends;       ///< package names of Depends/Pre-Depends, alternatives too
  std::vector<std::string> provides;      ///< package names of Provides
  std::unordered_set<std::string> files;  ///< host paths of the files and links it ships
};

/// The installed copy of a package being installed, which installing replaces: its files in
/// the base are hidden (RootedFs::Hide), so the hints that say what the new version dropped
/// read its shared objects here.
struct ReplacedCopy {
  std::string package;
  std::string version;                 ///< its dpkg status Version; "" when unknown
  std::vector<std::string> libraries;  ///< its shared objects in the base: host paths
  std::vector<std::string> installed;  ///< the same, as the installed system names them
};

/// The packager's policy, from the command line.
struct CheckOptions {
  std::vector<std::string> forbid_rpath;  ///< --forbid-rpath globs
  std::string tmpdir;                     ///< $TMPDIR at start-up, if set
  ArchRequirement arch;                   ///< --require-arch, --isa-compat
  bool relocatable = false;               ///< --relocatable: every absolute path is a defect
  std::vector<PackageOfSet> packages;     ///< package PATHs, when the set is installed
  std::vector<ReplacedCopy> replaced;     ///< installed copies of the packages being installed
};

/// What the run knows beyond one file.
struct RunFacts {
  std::vector<std::string> audited_prefixes;           ///< host paths of the audited prefixes
  std::unordered_set<std::string> audited_real_paths;  ///< loadable files audited on their own
  /// Audited host ELF files by file name and by soname (walk paths): where a library the
  /// loader does not find actually is (a GPU code object is never that library).
  std::unordered_map<std::string, std::vector<std::string>> audited_by_name;
  /// Where undefined symbols are defined. Set once every file's binding is made; null for
  /// the checks of a file whose binding leaves no symbol undefined, which run before.
  const SymbolIndex* providers = nullptr;
};

struct FileInput {
  const InspectedFile& file;
  const CheckOptions& options;
};

struct LoadableInput {
  const InspectedFile& file;
  const LoadFacts& load;
  const LoaderConfig& loader;
  const CheckOptions& options;
  const RunFacts& run;
};

struct TreeInput {
  /// In walk order. A slot is empty where nothing after the file's own checks reads it
  /// (ReadAfterItsChecks: GPU code, bundles, data); CMake package configs are kept.
  const std::vector<Boxed<InspectedFile>>& files;
  const std::vector<Boxed<LoadFacts>>& loads;  ///< loads[i] belongs to files[i]
  const std::vector<WalkProblem>& walk_problems;
  const CheckOptions& options;
  const std::vector<AuditedPackage>& cmake_packages;
  const RunFacts& run;
  const LoaderConfig& loader;
  const std::vector<UnpackProblem>& unpack_problems;  ///< what unpacking the package PATHs refused
};

}  // namespace rocm_audit
