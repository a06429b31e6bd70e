#include "audit/inspect/inspected_file.h"

#include <llvm/BinaryFormat/ELF.h>
#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <new>
#include <optional>

#include "audit/elf/archive_reader.h"
#include "audit/elf/elf_reader.h"
#include "audit/elf/resident_pages.h"

namespace rocm_audit {
namespace {

std::string_view Bytes(const llvm::MemoryBuffer& b) {
  return std::string_view(b.getBufferStart(), b.getBufferSize());
}

// An ar archive without one object member is no static library: a Debian package (its first
// member is debian-binary) or something else. Read as a library it would pass with no
// symbols, silently; the reason says what it is instead.
std::optional<ParseProblem> NotAStaticLibrary(std::string_view bytes) {
  std::vector<std::string> names;
  bool object = false;
  std::string error;  // the members read before a corrupt one decide; the archive parse reports it
  (void)ForEachArchiveMember(
      bytes,
      [&](std::string_view name, std::string_view data) {
        if (names.size() < 3) names.emplace_back(name);
        object |= data.starts_with(
                      "\x7f"
                      "ELF") ||
                  data.starts_with("BC\xc0\xde") || data.starts_with("\xde\xc0\x17\x0b");
      },
      &error);
  if (object || names.empty()) return std::nullopt;
  if (names[0] == "debian-binary")
    return ParseProblem{
        ParseProblem::kPackageInTree,
        "a Debian package, not a static library: its contents are not audited here (give the .deb as a "
        "PATH "
        "argument to audit what it installs)"};
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
  return ParseProblem{ParseProblem::kUnknownArchive, "an ar archive with no object file among its members (" +
                                                         list +
                                                         "): neither a static library nor a "
                                                         "known package"};
}

// Members no ELF reader was handed (ValidateArchive): counted, the first few named.
NonElfMemberFacts NonElfFacts(const ArchiveSummary& summary) {
  NonElfMemberFacts facts{summary.non_elf, {}};
  for (const NonElfMember& m : summary.named) facts.named.push_back({m.name, m.format});
  return facts;
}

void ReadObject(const WalkedFile& file, ObjectStore& store, InspectedFile* out) {
  out->kind = std::string(FileKindName(file.kind));
  if (file.kind == FileKind::kElf) {
    out->elf = store.Get(file.real_path, file.path);
    if (!out->elf->model) {
      out->problems.push_back({ParseProblem::kUnparsable, out->elf->error});
      return;
    }
    const ElfModel& m = *out->elf->model;
    out->kind = std::string(m.kind_name());
    for (const auto& w : m.warnings) out->problems.push_back({ParseProblem::kPartlyUnreadable, w});
  } else if (file.kind == FileKind::kOther) {
    out->problems.push_back({ParseProblem::kNotAnObject, "is neither ELF nor a linker script"});
  } else if (file.kind == FileKind::kArArchive) {
    std::string error;
    auto buffer = MapFile(file.real_path, &error);
    ArchiveSummary summary;
    if (buffer && ValidateArchive(Bytes(*buffer), &summary, &error)) {
      out->archive_members = summary.members;
      if (summary.non_elf) out->non_elf_members = NonElfFacts(summary);
      if (std::optional<ParseProblem> problem = NotAStaticLibrary(Bytes(*buffer)))
        out->problems.push_back(std::move(*problem));
      out->archive = std::move(buffer);
    } else {
      out->problems.push_back({ParseProblem::kUnparsable, error});
    }
  }
}

// An ELF or archive stays mapped until the run ends (the symbol index and the checks read
// its tables), but its device code has been read: the pages of its bundles are given back
// now, by the worker, instead of all at once, on one thread, when the run unmaps every fat
// binary at its end. A later read faults them in again from the page cache. Only a
// mapped file: MADV_DONTNEED on a heap copy would zero it.
void DropDevicePages(const llvm::MemoryBuffer& buffer, const DeviceInventory& device) {
  const std::string_view bytes = Bytes(buffer);
  for (const Bundle& b : device.bundles)
    if (b.file_offset < bytes.size())
      ReleaseResidentRange(buffer, bytes.substr(b.file_offset, b.compressed_size));
}

// A bundle of 1 MB or more gives its pages back as soon as it has been read: librocsolver's
// 235 bundles (1.8 GB) and librocsparse's held 85 MB of touched pages each until the file was
// done, on top of a decoding window, at the whole tree's peak. Smaller ones wait for
// DropDevicePages: a madvise each would cost more than their pages are worth.
constexpr uint64_t kBundleReleasedAlone = 1 << 20;

BundleReadOptions ReleasingBundles(const BundleReadOptions& options, const llvm::MemoryBuffer& buffer) {
  BundleReadOptions releasing = options;
  releasing.bundle_read = [&buffer](std::string_view bundle) {
    if (bundle.size() >= kBundleReleasedAlone) ReleaseResidentRange(buffer, bundle);
  };
  return releasing;
}

// Device code in any file that can hold it: ELF (hosts and bare code objects), archives,
// standalone bundles.
void ReadDeviceCode(const WalkedFile& file, const BundleReadOptions& options, InspectedFile* out) {
  if (file.kind == FileKind::kElf && out->model()) {
    const llvm::MemoryBuffer& buffer = *out->model()->buffer;
    if (!ReadAfterItsChecks(*out)) {
      // A GPU code object: unmapped whole right after its checks, its pages go then.
      out->device = FindDeviceCode(file.kind, Bytes(buffer), options);
    } else {
      out->device = FindDeviceCode(file.kind, Bytes(buffer), ReleasingBundles(options, buffer));
      DropDevicePages(buffer, out->device);
    }
  } else if (file.kind == FileKind::kArArchive && out->archive) {
    out->device = FindDeviceCode(file.kind, Bytes(*out->archive), ReleasingBundles(options, *out->archive));
    DropDevicePages(*out->archive, out->device);
  } else if (file.kind == FileKind::kOffloadBundle || file.kind == FileKind::kCompressedBundle) {
    std::string error;
    auto buffer = MapFile(file.real_path, &error);
    if (!buffer) {
      out->problems.push_back({ParseProblem::kUnparsable, error});
      return;
    }
    out->device = FindDeviceCode(file.kind, Bytes(*buffer), options);
  }
  if (!out->device.bundles.empty()) out->offers = out->device.Offers();
}

// Tensile data pairs with code for specific processors. A library without a fat binary of
// its own (Debian's hipBLASLt keeps every kernel in library/) still has its data checked
// against --require-arch, so a data directory found counts even without code.
void ReadArchData(const WalkedFile& file, InspectedFile* out) {
  std::optional<ArchDataDir> data = FindArchData(file.path);
  if (!data) return;
  bool code = std::any_of(out->offers.begin(), out->offers.end(),
                          [](const ArchOffer& o) { return !IsGenericProcessor(o.target.processor); });
  if (code || !data->dir.empty()) out->arch_data = std::move(*data);
}

}  // namespace

bool InspectedFile::loadable() const {
  const ElfModel* m = model();
  return m && m->has_dynamic && m->machine != llvm::ELF::EM_AMDGPU &&
         (m->type == llvm::ELF::ET_DYN || m->type == llvm::ELF::ET_EXEC);
}

bool ReadAfterItsChecks(const InspectedFile& file) {
  const ElfModel* m = file.model();
  return (m && m->machine != llvm::ELF::EM_AMDGPU) || file.archive;
}

// Memory that runs out while one file is read (a size no cap of the readers bounded) is
// that file's problem: what was read of it is let go, and the run goes on with the others.
InspectedFile InspectFile(WalkedFile file, ObjectStore& store, const BundleReadOptions& options) {
  InspectedFile out;
  out.walked = std::move(file);
  try {
    ReadObject(out.walked, store, &out);
    if (!options.read_device_code) return out;
    ReadDeviceCode(out.walked, options, &out);
    ReadArchData(out.walked, &out);
  } catch (const std::bad_alloc&) {
    InspectedFile failed;
    failed.walked = std::move(out.walked);
    out = InspectedFile{};
    failed.kind = std::string(FileKindName(failed.walked.kind));
    failed.problems.push_back({ParseProblem::kUnparsable, std::string(kOutOfMemoryReason)});
    return failed;
  }
  return out;
}

}  // namespace rocm_audit
