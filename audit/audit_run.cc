#include "audit/audit_run.h"

#include <llvm/BinaryFormat/ELF.h>
#include <llvm/Support/MemoryBuffer.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <thread>
#include <unordered_set>

#include "audit/archive_reader.h"
#include "audit/closure.h"
#include "audit/device_code.h"
#include "audit/elf_reader.h"
#include "audit/ld_so_conf.h"
#include "audit/object_store.h"
#include "audit/parallel.h"
#include "audit/symbol_index.h"
#include "audit/walk.h"
#include "checks/arch_coverage.h"
#include "checks/arch_data_coverage.h"
#include "checks/bundle_integrity.h"
#include "checks/library_resolution.h"
#include "checks/mixed_soname.h"
#include "checks/registry.h"
#include "checks/rpath_entries.h"
#include "checks/stack_arch_gap.h"
#include "checks/undefined_symbols.h"
#include "reports/bundle_json.h"

namespace rocm_audit {
namespace {

// What the parse stage learned about one walked file.
struct ParsedFile {
  std::shared_ptr<const StoredObject> elf;  ///< for ELF files
  std::shared_ptr<llvm::MemoryBuffer> archive;  ///< for valid archives: the provider index reads it
  DeviceInventory device;                   ///< GPU code found in it
  std::vector<ArchOffer> offers;            ///< the targets its device entries serve
  std::vector<Finding> findings;            ///< per-file findings, unsorted
  nlohmann::ordered_json details = nlohmann::ordered_json::object();
  std::string kind;
};

// An error: the file is unusable. A note: a table is broken but the rest was audited.
Finding Malformed(const WalkedFile& file, std::string reason, Severity severity) {
  Finding f;
  f.check = "malformed-file";
  f.severity = severity;
  f.file = file.path;
  std::string kind(FileKindName(file.kind));
  if (file.kind == FileKind::kOther)
    f.message = "named like a shared library but " + reason;
  else if (severity == Severity::kError)
    f.message = kind + " file cannot be parsed: " + reason;
  else
    f.message = kind + " file is partly unreadable (the rest was audited): " + reason;
  f.fields["reason"] = reason;
  return f;
}

// The loader would be asked to load these: dynamic objects for a CPU (not GPU code objects).
bool IsLoadable(const ElfModel& m) {
  return m.has_dynamic && m.machine != llvm::ELF::EM_AMDGPU &&
         (m.type == llvm::ELF::ET_DYN || m.type == llvm::ELF::ET_EXEC);
}

std::string_view Bytes(const llvm::MemoryBuffer& b) {
  return std::string_view(b.getBufferStart(), b.getBufferSize());
}

// Device code in any file that can hold it: ELF (hosts and bare code objects), archives,
// standalone bundles.
void FindDevice(const WalkedFile& file, const BundleReadOptions& options, ParsedFile* out) {
  if (file.kind == FileKind::kElf && out->elf && out->elf->model) {
    out->device = FindDeviceCode(file.kind, Bytes(*out->elf->model->buffer), options);
  } else if (file.kind == FileKind::kArArchive && out->archive) {
    out->device = FindDeviceCode(file.kind, Bytes(*out->archive), options);
  } else if (file.kind == FileKind::kOffloadBundle || file.kind == FileKind::kCompressedBundle) {
    std::string error;
    auto buffer = MapFile(file.real_path, &error);
    if (!buffer) {
      out->findings.push_back(Malformed(file, error, Severity::kError));
      return;
    }
    out->device = FindDeviceCode(file.kind, Bytes(*buffer), options);
  }
  if (out->device.bundles.empty()) return;
  out->offers = out->device.Offers();
  out->details["bundles"] = BundlesToJson(out->device.bundles);
  std::vector<std::string> targets;
  for (const ArchOffer& o : out->offers) targets.push_back(o.target.str());
  std::sort(targets.begin(), targets.end());
  targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
  out->details["device_targets"] = targets;
  if (out->device.wrappers) out->details["fatbin_wrappers"] = out->device.wrappers;
}

void ParseOne(const WalkedFile& file, ObjectStore& store, ParsedFile* out) {
  out->kind = std::string(FileKindName(file.kind));
  if (file.kind == FileKind::kElf) {
    out->elf = store.Get(file.real_path, file.path);
    if (!out->elf->model) {
      out->findings.push_back(Malformed(file, out->elf->error, Severity::kError));
      return;
    }
    const ElfModel& m = *out->elf->model;
    out->kind = std::string(m.kind_name());
    for (const auto& w : m.warnings) out->findings.push_back(Malformed(file, w, Severity::kNote));
    out->details["class"] = m.elf_class == 2 ? "ELF64" : "ELF32";
    out->details["machine"] = std::string(m.machine_name());
    if (!m.soname.empty()) out->details["soname"] = m.soname;
    if (m.has_dynamic) {
      out->details["needed"] = m.needed;
      if (m.has_runpath) out->details["runpath"] = m.runpath;
      if (!m.rpath.empty()) out->details["rpath"] = m.rpath;
    }
  } else if (file.kind == FileKind::kOther) {
    out->findings.push_back(
        Malformed(file, "is neither ELF nor a linker script", Severity::kNote));
  } else if (file.kind == FileKind::kArArchive) {
    std::string error;
    auto buffer = MapFile(file.real_path, &error);
    size_t members = 0;
    if (buffer && ValidateArchive(std::string_view(buffer->getBufferStart(), buffer->getBufferSize()),
                                  &members, &error)) {
      out->details["members"] = members;
      out->archive = std::move(buffer);
    } else {
      out->findings.push_back(Malformed(file, error, Severity::kError));
    }
  }
}

void AuditLoadable(const WalkedFile& file, const ElfModel& model, const LoaderConfig& loader,
                   const CheckOptions& options, const RunContext& run, ObjectStore& store,
                   ParsedFile* out) {
  LoadClosure closure = BuildClosure(model, file.path, file.real_path, loader, store);
  FindingList sink;
  FileContext ctx{file, model, closure, loader, options, run};
  UnboundBehindLibrary unbound;
  CheckUndefinedSymbols(ctx, sink, &unbound);
  CheckLibraryResolution(ctx, unbound, sink);
  CheckRpathEntries(ctx, sink);
  CheckClosureSonames(ctx, sink);
  StackCoverage stack = CheckStackArchGap(ctx, sink);
  if (!stack.libraries.empty())
    out->details["device_stack"] = {{"libraries", stack.libraries}, {"common_targets", stack.common}};
  for (auto& f : sink.findings) out->findings.push_back(std::move(f));
  nlohmann::ordered_json objects = nlohmann::ordered_json::array();
  for (size_t i = 1; i < closure.objects.size(); ++i)
    objects.push_back(loader.fs.DisplayPath(closure.objects[i].path));
  out->details["closure"] = objects;
  nlohmann::ordered_json unresolved = nlohmann::ordered_json::array();
  for (const auto& u : closure.unresolved) unresolved.push_back(u.name);
  out->details["unresolved"] = unresolved;
}

}  // namespace

bool RunAudit(const AuditOptions& options, Report* report, std::string* error) {
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
  LoaderConfig loader{RootedFs(options.roots), options.library_path, {}, ""};
  loader.conf_dirs = ReadLdSoConf(loader.fs, options.ld_so_conf);
  unsigned jobs = options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency());

  report->inputs["paths"] = options.paths;
  std::vector<std::string> layers = loader.fs.layers();
  report->inputs["root"] = layers.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(layers[0]);
  report->inputs["roots"] = layers;
  report->inputs["library_path"] = options.library_path;
  report->inputs["ld_so_conf_dirs"] = loader.conf_dirs;

  WalkResult walk = WalkInputs(options.paths, loader.fs, [&](size_t n) {
    if (options.progress) options.progress("scanning", n, 0);
  });
  report->counts = walk.counts;
  std::vector<ParsedFile> parsed(walk.files.size());
  ObjectStore store;
  std::atomic<size_t> read{0}, audited{0};
  const size_t total = walk.files.size();
  auto tick = [&](const char* phase, std::atomic<size_t>& done) {
    size_t d = ++done;
    if (options.progress) options.progress(phase, d, total);
  };
  ParallelFor(walk.files.size(), jobs, [&](size_t i) {
    ParseOne(walk.files[i], store, &parsed[i]);
    FindDevice(walk.files[i], options.checks.bundles, &parsed[i]);
    FindingList sink;
    CheckBundleIntegrity(walk.files[i].path, parsed[i].device, sink);
    CheckArchCoverage(walk.files[i], parsed[i].device, options.checks, sink);
    nlohmann::ordered_json data = CheckArchDataCoverage(walk.files[i], parsed[i].device, sink);
    if (!data.is_null()) parsed[i].details["arch_data"] = std::move(data);
    for (auto& f : sink.findings) parsed[i].findings.push_back(std::move(f));
    tick("reading", read);
  });
  RunContext run;
  DeviceOfferCache offers(options.checks.bundles);
  run.device_offers = &offers;
  for (size_t i = 0; i < parsed.size(); ++i)
    if (parsed[i].elf && parsed[i].elf->model)
      offers.Put(walk.files[i].real_path, parsed[i].offers);
  for (size_t i = 0; i < parsed.size(); ++i)
    if (parsed[i].elf && parsed[i].elf->model && IsLoadable(*parsed[i].elf->model))
      run.audited_real_paths.insert(walk.files[i].real_path);
  ParallelFor(walk.files.size(), jobs, [&](size_t i) {
    if (parsed[i].elf && parsed[i].elf->model && IsLoadable(*parsed[i].elf->model))
      AuditLoadable(walk.files[i], *parsed[i].elf->model, loader, options.checks, run, store,
                    &parsed[i]);
    tick("auditing", audited);
  });

  // Tree-wide checks, then the provider index for the symbols findings ask about.
  std::vector<Finding> tree_findings = std::move(walk.problems);
  std::vector<TreeObject> tree;
  std::unordered_set<std::string> wanted;
  for (size_t i = 0; i < parsed.size(); ++i) {
    if (parsed[i].elf && parsed[i].elf->model && IsLoadable(*parsed[i].elf->model))
      tree.push_back({walk.files[i].path, parsed[i].elf->model->needed, parsed[i].elf->model->soname});
    for (const Finding& f : parsed[i].findings)
      if (f.check == "undefined-symbol") wanted.insert(f.fields["symbol"].get<std::string>());
  }
  FindingList tree_sink;
  CheckTreeSonames(tree, tree_sink);

  SymbolIndex index(std::move(wanted));
  if (!index.empty()) {
    for (size_t i = 0; i < parsed.size(); ++i) {
      const WalkedFile& f = walk.files[i];
      std::string shown = loader.fs.DisplayPath(f.path);
      if (parsed[i].elf && parsed[i].elf->model && parsed[i].elf->model->has_dynamic) {
        index.AddElf(shown, *parsed[i].elf->model);
      } else if (parsed[i].archive) {
        const llvm::MemoryBuffer& a = *parsed[i].archive;
        std::string ignored;  // a member that breaks here broke validation too: reported there
        index.AddArchive(shown, std::string_view(a.getBufferStart(), a.getBufferSize()), &ignored);
      }
    }
  }

  for (size_t i = 0; i < parsed.size(); ++i) {
    AddProviderHints(parsed[i].findings, index);
    std::stable_sort(parsed[i].findings.begin(), parsed[i].findings.end(),
                     [](const Finding& a, const Finding& b) { return a.severity > b.severity; });
    report->files.push_back({walk.files[i].path, parsed[i].kind, std::move(parsed[i].details)});
    for (auto& f : parsed[i].findings) report->findings.push_back(std::move(f));
  }
  for (auto& f : tree_sink.findings) report->findings.push_back(std::move(f));
  for (auto& f : tree_findings) report->findings.push_back(std::move(f));
  for (Finding& f : report->findings)
    if (f.hint.empty()) f.hint = std::string(FindCheck(f.check)->fix);
  return true;
}

}  // namespace rocm_audit
