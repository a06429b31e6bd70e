#include "engine/tree_audit.h"

#include <malloc.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <thread>

#include <llvm/Support/BuryPointer.h>

#include "audit/cmake/project_cmake_facts.h"
#include "audit/elf/object_store.h"
#include "audit/elf/resident_pages.h"
#include "audit/fs/walk.h"
#include "audit/gpu/decode_memory.h"
#include "audit/inspect/cmake_packages.h"
#include "audit/inspect/collect_facts.h"
#include "audit/inspect/inspect_files.h"
#include "audit/inspect/provider_index.h"
#include "audit/loader/ld_so_conf.h"
#include "audit/support/parallel.h"
#include "audit/unpack/package_database.h"
#include "checks/registry.h"
#include "engine/run_checks.h"

namespace rocm_audit {
namespace {

// The reasons a file's audit stopped when memory ran out after it was read.
constexpr std::string_view kOutOfMemoryInLoad =
    "memory ran out while resolving its load closure (std::bad_alloc): its loader checks were not run, "
    "the run went on";
constexpr std::string_view kOutOfMemoryInChecks =
    "memory ran out while checking it (std::bad_alloc): its findings and facts are left out, the run "
    "went on";

// What the audit reads and holds until the report's facts are collected: the mapped files
// and their models, the loader's view of each, the symbol index. A run that ends the
// process leaves it for the exit to release (ReleaseAtExit).
struct AuditedTree {
  ObjectStore store;
  std::vector<Boxed<InspectedFile>> files;  // empty where nothing reads a file after its checks
  std::vector<Boxed<LoadFacts>> loads;      // loads[i] belongs to files[i]
  std::optional<SymbolIndex> providers;
  std::vector<std::shared_ptr<llvm::MemoryBuffer>> archives;  // kept mapped once files[] is freed
};

// One run of the phases, in the order Run calls them; each phase reads what the ones before
// it left in the members.
class TreeAudit {
 public:
  TreeAudit(const AuditRequest& request, const EnabledRules& enabled, AuditSinks& sinks, Report* report)
      : request_(request),
        enabled_(enabled),
        sinks_(sinks),
        report_(*report),
        loader_{RootedFs(request.roots), request.library_path, {}, "", request.default_dirs},
        jobs_(request.jobs ? request.jobs : std::max(1u, std::thread::hardware_concurrency())),
        decode_memory_(request.decode_memory, request.spill_dirs),
        tree_(std::make_unique<AuditedTree>()) {}

  void Run(const std::vector<UnpackProblem>& unpack_problems) {
    ConfigureLoader();
    Walk();
    EvaluateCMakePackagesFirst();
    ReadFiles();
    MakeLoadFacts();
    FinishLoadableFiles();
    CheckWholeTree(unpack_problems);
    ReleaseAtExit();
  }

 private:
  // The loader's configuration, and what the read needs: device code and CMake configs are
  // read only when a running check needs them (a loader-only run never touches a bundle).
  void ConfigureLoader() {
    HideReplacedFiles();
    loader_.conf_dirs = ReadLdSoConf(loader_.fs, request_.ld_so_conf);
    report_.inputs.roots = loader_.fs.layers();
    // The packages' private tree is a layer, but no --root: it is gone after the run.
    if (const std::string& tree = report_.inputs.unpacked_into; !tree.empty())
      std::erase(report_.inputs.roots, RootedFs(std::vector<std::string>{tree, "/"}).layers().front());
    report_.inputs.library_path = request_.library_path;
    report_.inputs.ld_so_conf_dirs = loader_.conf_dirs;
    needs_ = enabled_.Needs();
    bundles_ = request_.bundles;
    bundles_.read_device_code = needs_ & kNeedsDeviceCode;
    bundles_.memory = &decode_memory_;
  }

  // The base never stands in for a file being installed: what the installed copies of the
  // packages being installed own in a layer, installing them removes (or replaces), so that
  // layer does not show it. A file they still ship is found in the layers above.
  void HideReplacedFiles() {
    if (request_.installing.empty()) return;
    const std::vector<std::string> layers = loader_.fs.layers();
    for (size_t i = 0; i < layers.size(); ++i)
      if (auto owned = InstalledFilesOf(layers[i], request_.installing); !owned.empty())
        loader_.fs.Hide(i, std::move(owned));
  }

  // Every regular file once. The list is whole before reading starts: a file met through a
  // symlinked directory gives way to its installed path met later.
  void Walk() {
    walk_ = WalkInputs(request_.paths, loader_.fs, [&](size_t n) { sinks_.Progress("scanning", n, 0); });
    DropLinksIntoSiblings();
    report_.counts = walk_.counts;
    total_ = walk_.files.size();
    for (size_t i = 0; i < total_; ++i) bytes_audited_ += walk_.files.file_size(i);
    per_file_.resize(total_);
    package_of_.assign(total_, nullptr);
    finished_.assign(total_, 0);
    closure_cut_.assign(total_, 0);
    facts_to_sink_ = sinks_.TakesFileFacts(report_.inputs);
    if (!facts_to_sink_) report_.files.resize(total_);
  }

  // A link out of the audited tree that a sibling resolves (a -dev package's libfoo.so to
  // the library package's libfoo.so.1) is followed into a package installed in the same
  // operation, which is audited with it (dh_rocm_audit audits each in turn): not a path the
  // audit left unchecked, so no link-outside-tree note.
  void DropLinksIntoSiblings() {
    const std::vector<std::string>& siblings = report_.inputs.siblings;
    if (siblings.empty()) return;
    auto into_sibling = [&](const WalkProblem& p) {
      if (p.kind != WalkProblem::kOutsideTree) return false;
      auto resolved = loader_.fs.ResolveFully(p.path);
      return resolved && std::any_of(siblings.begin(), siblings.end(), [&](const std::string& layer) {
               return resolved->host.starts_with(layer + "/");
             });
    };
    std::erase_if(walk_.problems, into_sibling);
  }

  // CMake package configs read nothing of the other files: evaluated first, their facts
  // are ready when their files are read.
  void EvaluateCMakePackagesFirst() {
    if (needs_ & kNeedsCMake)
      packages_ = EvaluateCMakePackages(
          walk_.files, loader_.fs, {request_.cmake_prefix_path, !request_.no_base, !request_.roots.empty()});
    for (const AuditedPackage& p : packages_) package_of_[p.file] = &p;
  }

  // Each file read once, in parallel. A file the loader does not load is done as soon as it
  // is read; unless the loader or a whole-tree check reads it later (a host ELF file, an
  // archive, a CMake package's config), it is dropped then, its model with it: GPU code
  // objects and bundles, most of a ROCm tree, hold nothing until the end.
  void ReadFiles() {
    // The prefixes the audited files were found under, first seen first: taken from the
    // walk, since a file's slot is emptied once nothing needs it.
    prefixes_ = walk_.files.prefixes();
    ObjectStore& store = tree_->store;
    tree_->files = InspectFiles(std::move(walk_.files), store, bundles_, decode_memory_, jobs_,
                                [&](size_t i, InspectedFile& file) {
                                  Tick("reading", read_);
                                  if (file.loadable()) return true;
                                  Finish(i, file, nullptr);
                                  finished_[i] = 1;
                                  if (ReadAfterItsChecks(file) || package_of_[i]) return true;
                                  if (file.elf) store.Forget(file.walked.real_path);
                                  return false;
                                });
    // Only closure members outside the audited paths are decoded from here on, rarely.
    decode_memory_.ReleaseUnused();
    // What reading freed stays in the workers' malloc arenas; given back, it is not the
    // floor of the phases that follow.
    if (request_.release_at_exit) TrimFreedMemory();
  }

  // The loader's view of each loadable file, then the run's one symbol index. Closure
  // members outside the audited paths have their device code read on first use. A file
  // whose symbols all bind is checked as soon as its view is made (MakeLoadFactsOf). Other
  // closures are kept whole for the file's own checks (FinishLoadableFiles) while the run holds
  // fewer than kWholeClosureObjects objects in them, as the real trees measured do; past that,
  // a closure is cut to what the whole-tree checks read (DirectNeedsOf) as soon as the
  // symbol binding and the device stack are made of it, and made again for its checks: N
  // libraries each loading the next would otherwise hold N closures of up to N objects at
  // once. The run's loader memo makes the second closure without searching again.
  void MakeLoadFacts() {
    std::vector<Boxed<InspectedFile>>& files = tree_->files;
    DeviceOfferCache offers(bundles_);
    for (const Boxed<InspectedFile>& f : files)
      if (f && f->loadable()) offers.Put(f->walked.real_path, f->offers);
    run_ = CollectRunFacts(files, std::move(prefixes_));
    std::vector<Boxed<LoadFacts>>& loads = tree_->loads;
    loads.resize(total_);
    PluginHosts plugins(MakePluginContext(files, request_.plugin_hosts), files, loader_, tree_->store,
                        &loader_memo_);
    ParallelFor(total_, jobs_, [&](size_t i) {
      if (files[i] && files[i]->loadable()) MakeLoadFactsOf(i, offers, plugins);
      Tick("auditing", audited_);
    });
    // The base's libraries provide what nothing audited defines when the run was given the
    // system it is installed in (--root layers, or packages over a base).
    run_.providers = &tree_->providers.emplace(
        BuildProviderIndex(files, loads, loader_, !request_.roots.empty() || report_.inputs.installed_world));
    decode_memory_.ReleaseUnused();  // what closure members outside the tree decoded
  }

  // The loader's view of file i. Memory that runs out while its closure is resolved is the
  // file's finding: its closure is let go, and its file checks still run on what was read.
  void MakeLoadFactsOf(size_t i, DeviceOfferCache& offers, PluginHosts& plugins) {
    InspectedFile& file = *tree_->files[i];
    Boxed<LoadFacts>& load = tree_->loads[i];
    try {
      load = InspectLoad(file, loader_, tree_->store, offers, request_.checks.arch, &plugins, &loader_memo_);
      sinks_.LoadFactsReady(i, file, *load, loader_);
      // The run's symbol index is read only for the symbols a binding leaves undefined
      // (undefined-symbol's "defined in" hints). A file that leaves none is checked now, on
      // the closure just made, and that closure is cut at once: only files with undefined
      // symbols wait for the index, and only their closures can need making again.
      if (load->binding.undefined.empty()) {
        Finish(i, file, &*load);
        finished_[i] = 1;
        load->closure = DirectNeedsOf(std::move(load->closure));
        return;
      }
      const size_t objects = load->closure.objects.size();
      if (whole_closure_objects_.fetch_add(objects) + objects > kWholeClosureObjects) {
        whole_closure_objects_ -= objects;
        load->closure = DirectNeedsOf(std::move(load->closure));
        closure_cut_[i] = 1;
      }
    } catch (const std::bad_alloc&) {
      load = {};
      file.problems.push_back({ParseProblem::kUnparsable, std::string(kOutOfMemoryInLoad)});
    }
  }

  // Each loadable file's checks and facts, on its whole closure (made again if it was
  // cut); then the closure is cut to what the whole-tree checks read.
  void FinishLoadableFiles() {
    ParallelFor(total_, jobs_, [&](size_t i) {
      if (finished_[i]) return;
      Boxed<LoadFacts>& load = tree_->loads[i];
      if (load && closure_cut_[i]) RestoreClosure(i);
      Finish(i, *tree_->files[i], load ? &*load : nullptr);
      if (load) load->closure = DirectNeedsOf(std::move(load->closure));
    });
  }

  // File i's whole closure, as MakeLoadFactsOf made it. Memory that runs out is the file's
  // finding there too: its loader facts are let go, and its file checks still run.
  void RestoreClosure(size_t i) {
    InspectedFile& file = *tree_->files[i];
    Boxed<LoadFacts>& load = tree_->loads[i];
    try {
      load->closure = ClosureOf(file, loader_, tree_->store, &loader_memo_);
    } catch (const std::bad_alloc&) {
      load = {};
      file.problems.push_back({ParseProblem::kUnparsable, std::string(kOutOfMemoryInLoad)});
    }
  }

  // The whole-tree checks, then every finding into the report: each file's in walk order,
  // then the tree's.
  void CheckWholeTree(const std::vector<UnpackProblem>& unpack_problems) {
    const TreeCaps caps{{request_.max_findings_per_file, request_.max_report_bytes_per_file},
                        bytes_audited_,
                        request_.paths.empty() ? std::string() : request_.paths.front()};
    std::vector<Finding> tree =
        CheckTree(TreeInput{tree_->files, tree_->loads, walk_.problems, request_.checks, packages_, run_,
                            loader_, unpack_problems},
                  enabled_, caps);
    for (std::vector<Finding>& of_file : per_file_)
      for (Finding& f : of_file) report_.findings.push_back(std::move(f));
    per_file_ = {};
    for (Finding& f : tree) report_.findings.push_back(std::move(f));
  }

  // The mappings are left for the exit to release, as clang's -disable-free and mold do
  // (llvm::BuryPointer keeps them reachable, so leak checkers stay quiet). What was read
  // from them is freed here.
  void ReleaseAtExit() {
    if (!request_.release_at_exit) return;
    for (Boxed<InspectedFile>& f : tree_->files)
      if (f && f->archive) tree_->archives.push_back(std::move(f->archive));
    tree_->files = {};
    tree_->loads = {};
    tree_->providers.reset();
    llvm::BuryPointer(std::move(tree_));
  }

  // One file's checks and report facts. The facts go to the sink or into the report; then
  // what only they needed goes too: the whole-tree checks read the walk, the ELF model and
  // the loader's facts, never device code or parse problems. Memory that runs out while the
  // file is checked is its finding, and the others go on.
  void Finish(size_t i, InspectedFile& file, const LoadFacts* load) {
    FileFacts facts;
    try {
      per_file_[i] = CheckFile(file, load, loader_, request_.checks, run_, enabled_,
                               {request_.max_findings_per_file, request_.max_report_bytes_per_file});
      facts = CollectFacts(file, load, loader_, request_.checks.arch.isa_compat, request_.symbol_facts,
                           sinks_.DrawsLoadGraph());
      if (package_of_[i]) facts.cmake = ProjectCMakeFacts(package_of_[i]->package, request_.symbol_facts);
      facts.report_bytes = ReportByteBudget(request_.max_report_bytes_per_file, file.walked.size);
    } catch (const std::bad_alloc&) {
      per_file_[i] = {};
      facts = FileFacts{};
      facts.path = file.walked.path;
      facts.kind = file.kind;
      Finding f = MakeFinding(*FindRule("malformed-file"), file.walked.path);
      f.message = std::string(FileKindName(file.walked.kind)) +
                  " file cannot be audited: " + std::string(kOutOfMemoryInChecks);
      f.fields["reason"] = std::string(kOutOfMemoryInChecks);
      per_file_[i].push_back(std::move(f));
    }
    // The file's own tables (its symbols, relocations, the names it imports) are read again
    // only by the whole-tree checks and by lookups into it as a library: its pages go, so
    // that the run holds one file's tables at a time, not every file's.
    // A small mapping kept when it was read is counted already: released now, it would cost
    // a TLB flush of every core for a few pages (a third of the madvise calls of the loader
    // checks over sid-root).
    if (const ElfModel* model = file.model(); model && !model->pages_kept)
      ReleaseResidentPagesUnlessSmall(*model->buffer);
    file.device = {};
    file.offers = {};
    file.arch_data.reset();
    file.problems = {};
    if (!facts_to_sink_) {
      report_.files[i] = std::move(facts);
      return;
    }
    {
      std::lock_guard lock(streamed_mutex_);
      ++report_.streamed_by_kind[facts.kind];
    }
    sinks_.FileFactsReady(i, std::move(facts));
  }

  void Tick(const char* phase, std::atomic<size_t>& done) { sinks_.Progress(phase, ++done, total_); }

  const AuditRequest& request_;
  const EnabledRules& enabled_;
  AuditSinks& sinks_;
  Report& report_;
  LoaderConfig loader_;
  LoaderMemo loader_memo_;  // loader_'s, once ConfigureLoader has made it final
  const unsigned jobs_;
  unsigned needs_ = 0;
  DecodeMemory decode_memory_;
  BundleReadOptions bundles_;
  std::unique_ptr<AuditedTree> tree_;
  WalkResult walk_;
  size_t total_ = 0;
  uint64_t bytes_audited_ = 0;  // the walked files' sizes, added up: the tree's findings' budget
  std::vector<std::string> prefixes_;
  std::vector<AuditedPackage> packages_;
  std::vector<const AuditedPackage*> package_of_;  // the CMake package whose config file i is
  std::vector<char> finished_;                     // file i's checks and facts are done
  std::vector<char> closure_cut_;                  // file i's closure waits to be made again
  // A closure object costs about 250 bytes: the whole closures kept stay under ~25 MB.
  // Debian 12's /usr/lib/x86_64-linux-gnu audited over / holds 48,095 objects in 2,630
  // closures (the longest 261); the corpus's sid tree 1,207.
  static constexpr size_t kWholeClosureObjects = 100'000;
  std::atomic<size_t> whole_closure_objects_{0};
  std::vector<std::vector<Finding>> per_file_;
  RunFacts run_;  // what loadable checks ask about the tree; whole once every file is read
  bool facts_to_sink_ = false;
  std::mutex streamed_mutex_;
  std::atomic<size_t> read_{0}, audited_{0};
};

}  // namespace

void TrimFreedMemory() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) == 0 && usage.ru_maxrss * 1024L < kGrownWorthTrimming) return;
  malloc_trim(0);
}

void AuditTree(const AuditRequest& request, const EnabledRules& enabled,
               const std::vector<UnpackProblem>& unpack_problems, AuditSinks& sinks, Report* report) {
  TreeAudit(request, enabled, sinks, report).Run(unpack_problems);
}

}  // namespace rocm_audit
