#include "cli/pipeline.h"

#include <malloc.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include <llvm/Support/BuryPointer.h>

#include "audit/cmake/project_cmake_facts.h"
#include "audit/elf/object_store.h"
#include "audit/fs/path.h"
#include "audit/fs/walk.h"
#include "audit/gpu/decode_memory.h"
#include "audit/inspect/cmake_packages.h"
#include "audit/inspect/collect_facts.h"
#include "audit/inspect/inspect_files.h"
#include "audit/inspect/inspected_file.h"
#include "audit/inspect/load_facts.h"
#include "audit/inspect/provider_index.h"
#include "audit/loader/ld_so_conf.h"
#include "audit/support/parallel.h"
#include "checks/registry.h"
#include "cli/package_inputs.h"

namespace rocm_audit {
namespace {

bool CheckInputs(const AuditOptions& options, std::string* error) {
  for (const auto& p : options.paths) {
    struct stat st;
    if (lstat(p.c_str(), &st) != 0) {
      *error = p + ": no such file or directory";
      return false;
    }
  }
  for (const auto& root : options.roots) {
    struct stat st;
    if (stat(root.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
      *error = "--root " + root + ": not a directory";
      return false;
    }
  }
  return true;
}

// A check runs unless every rule it reports is disabled.
bool Runs(const Check& check, const std::vector<std::string>& disabled) {
  for (const Rule& r : check.rules)
    if (std::find(disabled.begin(), disabled.end(), r.id) == disabled.end()) return true;
  return false;
}

// Findings of one file: every file-stage check, then for a loadable file every
// loadable-stage check, in registry order; the most severe first, ties in that order.
std::vector<Finding> CheckFile(const InspectedFile& file, const LoadFacts* load, const LoaderConfig& loader,
                               const AuditOptions& audit, const RunFacts& run) {
  const CheckOptions& options = audit.checks;
  FindingSink sink;
  for (const Check* check : AllChecks()) {
    if (!Runs(*check, audit.disabled_rules)) continue;
    if (const auto* run_file = std::get_if<FileCheck>(&check->run)) {
      (*run_file)(FileInput{file, options}, sink);
    } else if (const auto* run_loadable = std::get_if<LoadableCheck>(&check->run); run_loadable && load) {
      (*run_loadable)(LoadableInput{file, *load, loader, options, run}, sink);
    }
  }
  std::stable_sort(sink.findings.begin(), sink.findings.end(),
                   [](const Finding& a, const Finding& b) { return a.severity > b.severity; });
  return std::move(sink.findings);
}

// What checks may ask about the run as a whole: which files are audited, under which
// prefixes, and by which names (host ELF files: ld.so loads no GPU code object).
RunFacts CollectRunFacts(const std::vector<Boxed<InspectedFile>>& files, std::vector<std::string> prefixes) {
  RunFacts run;
  run.audited_prefixes = std::move(prefixes);
  for (const Boxed<InspectedFile>& kept : files) {
    if (!kept || !kept->model() || !ReadAfterItsChecks(*kept)) continue;
    const InspectedFile& f = *kept;
    if (f.loadable()) run.audited_real_paths.insert(f.walked.real_path);
    std::string name(BaseName(f.walked.path));
    run.audited_by_name[name].push_back(f.walked.path);
    if (!f.model()->soname.empty() && f.model()->soname != name)
      run.audited_by_name[f.model()->soname].push_back(f.walked.path);
  }
  return run;
}

// What the audit reads and holds until the report's facts are collected: the mapped files
// and their models, the loader's view of each, the symbol index.
struct AuditedTree {
  ObjectStore store;
  std::vector<Boxed<InspectedFile>> files;  // empty where nothing reads a file after its checks
  std::vector<Boxed<LoadFacts>> loads;
  std::optional<SymbolIndex> providers;
  std::vector<std::shared_ptr<llvm::MemoryBuffer>> archives;  // kept mapped once files[] is freed
};

// The audit of the PATHs once packages among them are unpacked.
bool AuditTree(const AuditOptions& options, const std::vector<UnpackProblem>& unpack_problems,
               Report* report) {
  LoaderConfig loader{RootedFs(options.roots), options.library_path, {}, ""};
  loader.conf_dirs = ReadLdSoConf(loader.fs, options.ld_so_conf);
  loader.default_dirs = options.default_dirs;
  const unsigned jobs = options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  // The PATHs as given, and the packages among them, are RunAudit's.
  report->inputs.roots = loader.fs.layers();
  report->inputs.library_path = options.library_path;
  report->inputs.ld_so_conf_dirs = loader.conf_dirs;
  for (const Rule* r : AllRules()) report->rules.push_back(*r);
  // Facts on demand: device code and CMake configs are read only when a running check needs
  // them (a loader-only run never touches a bundle).
  unsigned needs = kNeedsElfAndLoader;
  for (const Check* c : AllChecks())
    if (Runs(*c, options.disabled_rules)) needs |= c->needs;
  BundleReadOptions bundles = options.bundles;
  bundles.read_device_code = needs & kNeedsDeviceCode;
  DecodeMemory decode_memory(options.decode_memory, options.spill_dirs);
  bundles.memory = &decode_memory;

  // Walk, then read each file once.
  WalkResult walk = WalkInputs(options.paths, loader.fs, [&](size_t n) {
    if (options.progress) options.progress("scanning", n, 0);
  });
  report->counts = walk.counts;
  const size_t total = walk.files.size();
  std::atomic<size_t> read{0}, audited{0};
  auto tick = [&](const char* phase, std::atomic<size_t>& done) {
    size_t d = ++done;
    if (options.progress) options.progress(phase, d, total);
  };
  auto tree_held = std::make_unique<AuditedTree>();
  ObjectStore& store = tree_held->store;
  std::vector<Boxed<InspectedFile>>& files = tree_held->files;

  // Each file's checks and report facts. The facts go to the sink (files[] of a JSON report
  // is rendered from them there, and they are freed) or into the report; then what only
  // they needed goes too: the whole-tree checks read the walk, the ELF model and the loader's
  // facts. Files the loader does not load (code objects, bundles, archives, CMake configs)
  // are done as soon as they are read, loadable ones once the loader's facts are made: on
  // a 4x tree, device code held until the end, report facts kept for files[] and an array
  // of them to move from were 40 of the 66 MB of anonymous memory at the end of the run.
  std::vector<std::vector<Finding>> per_file(total);
  std::vector<const AuditedPackage*> package_of(total, nullptr);
  RunFacts run;  // what loadable checks ask about the tree; filled once every file is read
  FileFactsSink sink = options.file_facts_sink ? options.file_facts_sink(report->inputs) : nullptr;
  std::mutex streamed_mutex;
  if (!sink) report->files.resize(total);
  auto finish = [&](size_t i, InspectedFile& file, const LoadFacts* load) {
    per_file[i] = CheckFile(file, load, loader, options, run);
    FileFacts facts = CollectFacts(file, load, loader, options.checks.arch.isa_compat);
    if (package_of[i]) facts.cmake = ProjectCMakeFacts(package_of[i]->package);
    file.device = {};
    file.offers = {};
    file.arch_data.reset();
    file.problems = {};
    if (!sink) {
      report->files[i] = std::move(facts);
      return;
    }
    {
      std::lock_guard lock(streamed_mutex);
      ++report->streamed_by_kind[facts.kind];
    }
    sink(i, std::move(facts));
  };
  // CMake package configs read nothing of the other files: evaluated first, their facts are
  // ready when their files are read.
  std::vector<AuditedPackage> packages;
  if (needs & kNeedsCMake)
    packages = EvaluateCMakePackages(walk.files, loader.fs, options.cmake_prefix_path, jobs);
  for (const AuditedPackage& p : packages) package_of[p.file] = &p;
  // The prefixes the audited files were found under, first seen first: taken from the walk,
  // since a file's slot is emptied once nothing needs it.
  std::vector<std::string> prefixes = walk.files.prefixes();
  // A file the loader does not load is done once read; unless the loader or a whole-tree
  // check reads it later (a host ELF file, an archive, a CMake package's config), it is
  // dropped then, its model with it: on the sid tree, 1,708 of 2,138 audited files (its GPU
  // code objects and bundles), which held about 1 KB each until the end.
  std::vector<char> finished(total, 0);
  files = InspectFiles(std::move(walk.files), store, bundles, decode_memory, jobs,
                       [&](size_t i, InspectedFile& file) {
                         tick("reading", read);
                         if (file.loadable()) return true;
                         finish(i, file, nullptr);
                         finished[i] = 1;
                         if (ReadAfterItsChecks(file) || package_of[i]) return true;
                         if (file.elf) store.Forget(file.walked.real_path);
                         return false;
                       });
  // Only closure members outside the audited paths are decoded from here on, rarely.
  decode_memory.ReleaseUnused();
  // What reading freed stays in the workers' malloc arenas; given back, it is not the floor
  // of the phases that follow (4x tree: 42 -> 39 MB at the end of the run).
  if (options.release_at_exit) malloc_trim(0);

  // The loader's view of each loadable file; closure members outside the audited paths
  // have their device code read on first use (so do any other files: only loadable ones
  // still hold theirs).
  DeviceOfferCache offers(bundles);
  for (const Boxed<InspectedFile>& f : files)
    if (f && f->loadable()) offers.Put(f->walked.real_path, f->offers);
  run = CollectRunFacts(files, std::move(prefixes));
  std::vector<Boxed<LoadFacts>>& loads = tree_held->loads;
  loads.resize(total);
  ParallelFor(total, jobs, [&](size_t i) {
    if (files[i] && files[i]->loadable())
      loads[i] = InspectLoad(*files[i], loader, store, offers, options.checks.arch);
    tick("auditing", audited);
  });
  run.providers = &tree_held->providers.emplace(BuildProviderIndex(files, loads, loader));

  decode_memory.ReleaseUnused();  // what closure members outside the tree decoded

  ParallelFor(total, jobs, [&](size_t i) {
    if (!finished[i]) finish(i, *files[i], loads[i] ? &*loads[i] : nullptr);  // loadable: kept
  });
  FindingSink tree;
  for (const Check* check : AllChecks())
    if (const auto* run_tree = std::get_if<TreeCheck>(&check->run);
        run_tree && Runs(*check, options.disabled_rules))
      (*run_tree)(
          TreeInput{files, loads, walk.problems, options.checks, packages, run, loader, unpack_problems},
          tree);

  for (std::vector<Finding>& of_file : per_file)
    for (Finding& f : of_file) report->findings.push_back(std::move(f));
  per_file = {};
  for (Finding& f : tree.findings) report->findings.push_back(std::move(f));
  // The mappings are left for the exit to release, as clang's -disable-free and mold do
  // (llvm::BuryPointer keeps them reachable, so leak checkers stay quiet). What was read from
  // them is freed here, and given back to the system once the run's other facts are gone
  // too (RunAudit).
  if (options.release_at_exit) {
    for (Boxed<InspectedFile>& f : files)
      if (f && f->archive) tree_held->archives.push_back(std::move(f->archive));
    files = {};
    loads = {};
    tree_held->providers.reset();
    llvm::BuryPointer(std::move(tree_held));
  }
  return true;
}

}  // namespace

bool RunAudit(const AuditOptions& given, Report* report, std::string* error) {
  if (!CheckInputs(given, error)) return false;
  AuditOptions options = given;
  PackageInputs packages;
  if (!UnpackPackageInputs(&options.paths, &options.roots, &options.checks.relocatable, given.unpack,
                           &packages, error))
    return false;
  report->inputs.paths = given.paths;
  report->inputs.packages = std::move(packages.packages);
  if (packages.dir) report->inputs.unpacked_into = packages.dir->path();
  AuditTree(options, packages.problems, report);
  // What the workers read and freed stays in their malloc arenas, which writing the report
  // does not reuse. Given back once the walk, the run facts and the offer cache are gone too
  // (as AuditTree returns), the report is written from 30 MB instead of 42 on a 4x tree.
  if (options.release_at_exit) malloc_trim(0);
  return true;  // the private directory goes here, with every file unpacked into it
}

}  // namespace rocm_audit
