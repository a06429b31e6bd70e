#include "audit/gpu/device_code.h"

#include <llvm/BinaryFormat/ELF.h>
#include <llvm/Object/ELF.h>
#include <llvm/Support/Endian.h>

#include <algorithm>
#include <set>

#include "audit/elf/archive_reader.h"
#include "audit/gpu/bundle_reader.h"
#include "audit/gpu/offload_binary.h"
#include "audit/support/hex.h"
#include "audit/support/llvm_expected.h"

namespace rocm_audit {
namespace {

using Elf = llvm::object::ELFFile<llvm::object::ELF64LE>;
using llvm::support::endian::read32le;
using llvm::support::endian::read64le;

constexpr std::string_view kFatbinSection = ".hip_fatbin";
constexpr std::string_view kWrapperSection = ".hipFatBinSegment";
constexpr std::string_view kRdcPrefix = "__CLANG_OFFLOAD_BUNDLE__";
constexpr std::string_view kOffloadingSection = ".llvm.offloading";
constexpr uint32_t kWrapperMagic = 0x48495046;  // "HIPF" (clr __hipFatMAGIC2)
constexpr uint64_t kWrapperSize = 24;

struct SectionView {
  const Elf::Elf_Shdr* header = nullptr;
  std::string_view bytes;
  size_t index = 0;
};

// Where each .hipFatBinSegment wrapper points, as offsets into .hip_fatbin. In a linked
// PIC file the pointer is a RELATIVE relocation's addend (RELA) or the stored value
// (REL/RELR, non-PIE); in an object file it is a symbol + addend relocation.
std::vector<std::pair<size_t, int64_t>> WrapperTargets(const Elf& elf, const Elf::Elf_Shdr& fatbin,
                                                       size_t fatbin_index, const SectionView& wrappers,
                                                       std::vector<BundleProblem>* problems) {
  std::vector<std::pair<size_t, int64_t>> targets;  // (wrapper number, offset in .hip_fatbin)
  const bool relocatable = elf.getHeader().e_type == llvm::ELF::ET_REL;
  const uint64_t base = wrappers.header->sh_addr;
  auto sections = elf.sections();
  if (!Take(sections)) return targets;
  // What each relocation stores at the address (linked) or section offset (object) it
  // patches: RELATIVE -> its addend; a 64-bit absolute one -> its symbol's value + addend
  // (RDC libraries export __hip_fatbin and relocate the wrapper against it).
  std::unordered_map<uint64_t, int64_t> pointer_at;
  for (const auto& s : *sections) {
    if (s.sh_type != llvm::ELF::SHT_RELA) continue;
    if (relocatable && s.sh_info != wrappers.index) continue;
    auto relas = elf.relas(s);
    if (!Take(relas)) continue;
    auto link = elf.getSection(s.sh_link);
    const Elf::Elf_Shdr* symtab = Take(link) ? *link : nullptr;
    for (const auto& r : *relas) {
      // Only the pointer slots of the wrappers matter; skip the library's other relocations.
      uint64_t slot = relocatable ? r.r_offset : r.r_offset - base;
      if (r.r_offset < (relocatable ? 0 : base) || slot >= wrappers.bytes.size()) continue;
      uint32_t type = r.getType(false);
      if (type == llvm::ELF::R_X86_64_RELATIVE || type == llvm::ELF::R_AARCH64_RELATIVE) {
        pointer_at[r.r_offset] = r.r_addend;
      } else if ((type == llvm::ELF::R_X86_64_64 || type == llvm::ELF::R_AARCH64_ABS64) && symtab) {
        auto sym = elf.getSymbol(symtab, r.getSymbol(false));
        if (!Take(sym) || (*sym)->st_shndx == llvm::ELF::SHN_UNDEF) continue;
        // In an object file only symbols in .hip_fatbin count (values are section offsets).
        if (relocatable && (*sym)->st_shndx != fatbin_index) continue;
        pointer_at[r.r_offset] = int64_t((*sym)->st_value) + r.r_addend;
      }
    }
  }
  for (uint64_t at = 0, n = 0; at + kWrapperSize <= wrappers.bytes.size(); at += kWrapperSize, ++n) {
    const char* w = wrappers.bytes.data() + at;
    if (read32le(w) != kWrapperMagic || read32le(w + 4) != 1) {
      problems->push_back({BundleProblem::kMalformed,
                           std::string(kWrapperSection) + " record " + std::to_string(n) + " has magic " +
                               Hex(read32le(w)) + " version " + std::to_string(read32le(w + 4)) +
                               "; the HIP runtime refuses to register it"});
      continue;
    }
    uint64_t key = relocatable ? at + 8 : base + at + 8;
    auto it = pointer_at.find(key);
    int64_t offset = -1;
    if (it != pointer_at.end())
      offset = relocatable ? it->second : int64_t(uint64_t(it->second) - fatbin.sh_addr);
    else if (!relocatable)  // REL/RELR or non-PIE: the pointer is stored in place
      offset = int64_t(read64le(w + 8) - fatbin.sh_addr);
    targets.push_back({n, offset});
  }
  return targets;
}

// The sections of a HIP host file that carry or register device code.
struct OffloadSections {
  SectionView fatbin;                   // .hip_fatbin: a sequence of bundles
  SectionView wrappers;                 // .hipFatBinSegment: the runtime's registration records
  std::vector<SectionView> rdc;         // __CLANG_OFFLOAD_BUNDLE__<id>: one -fgpu-rdc entry each
  std::vector<SectionView> offloading;  // .llvm.offloading: the new offload driver's binaries
};

// Collects the offload sections by name. A section without file bytes (SHT_NOBITS) holds
// nothing to read; one whose bytes run past the end of the file is a malformed-bundle problem
// and is left out.
OffloadSections FindOffloadSections(const Elf& elf, std::vector<BundleProblem>* problems) {
  OffloadSections found;
  auto sections = elf.sections();
  if (!Take(sections)) return found;
  size_t index = 0;
  for (const auto& s : *sections) {
    size_t i = index++;
    auto name = elf.getSectionName(s);
    if (!Take(name)) continue;
    std::string_view n(name->data(), name->size());
    bool is_fatbin = n == kFatbinSection, is_wrapper = n == kWrapperSection;
    bool is_rdc = n.starts_with(kRdcPrefix);
    bool is_offloading = n == kOffloadingSection;
    if (!is_fatbin && !is_wrapper && !is_rdc && !is_offloading) continue;
    if (s.sh_type == llvm::ELF::SHT_NOBITS) continue;
    auto contents = elf.getSectionContents(s);
    if (!Take(contents)) {
      problems->push_back(
          {BundleProblem::kMalformed, "section " + name->str() + " runs past the end of the file"});
      continue;
    }
    SectionView v{&s, std::string_view(reinterpret_cast<const char*>(contents->data()), contents->size()), i};
    if (is_offloading)
      found.offloading.push_back(v);
    else if (is_fatbin)
      found.fatbin = v;
    else if (is_wrapper)
      found.wrappers = v;
    else
      found.rdc.push_back(v);
  }
  return found;
}

// A -fgpu-rdc object has one section per bundle entry, named by the entry's ID; together
// they are one bundle. The host entry's section holds one byte: its code is the object
// itself, so its size is 0. A section that holds a whole (compressed) bundle, as some
// producers write, is read as a bundle of its own.
void ReadRdcSections(const Elf& elf, const std::vector<SectionView>& rdc, uint64_t base,
                     const std::string& member, const BundleReadOptions& options, DeviceInventory* inv) {
  if (rdc.empty()) return;
  Bundle b;
  b.section = std::string(kRdcPrefix) + "*";
  b.member = member;
  b.file_offset = base;
  b.format = BundleFormat::kObjectSections;
  for (const SectionView& v : rdc) {
    auto name = elf.getSectionName(*v.header);
    BundleEntry e;
    e.id = Take(name) ? name->substr(kRdcPrefix.size()).str() : "";
    e.offset = v.header->sh_offset;
    e.size = v.bytes.size();
    std::string_view code = v.bytes;
    if (StartsWithBundleMagic(code)) {
      ReadBundleAt(code, 0, {name ? name->str() : "", member, base + v.header->sh_offset}, options,
                   &inv->bundles);
      continue;
    }
    auto parsed = ParseBundleEntryId(e.id);
    if (parsed && !parsed->device()) e.size = 0;
    InspectEntry(&e, b.entries.size(), code, &b.problems);
    b.compressed_size += v.bytes.size();
    b.entries.push_back(std::move(e));
  }
  b.uncompressed_size = b.compressed_size;
  if (!b.entries.empty()) inv->bundles.push_back(std::move(b));
}

// Every .hipFatBinSegment wrapper must point at the start of a bundle that the walk by length
// fields found in .hip_fatbin (bundles[first...]): the HIP runtime registers what the wrapper
// points at. A wrapper pointing elsewhere inside .hip_fatbin is a problem, and a bundle found
// there (by its magic) is read too; one pointing outside .hip_fatbin is a problem alone.
void CrossCheckWrappers(const Elf& elf, const SectionView& fatbin, const SectionView& wrappers, size_t first,
                        const BundleContainer& where, const BundleReadOptions& options,
                        DeviceInventory* inv) {
  std::set<uint64_t> starts;
  for (size_t i = first; i < inv->bundles.size(); ++i) starts.insert(inv->bundles[i].offset);
  auto targets = WrapperTargets(elf, *fatbin.header, fatbin.index, wrappers, &inv->problems);
  inv->wrappers = wrappers.bytes.size() / kWrapperSize;
  for (auto [n, offset] : targets) {
    if (offset >= 0 && starts.count(uint64_t(offset))) continue;
    std::string what = std::string(kWrapperSection) + " record " + std::to_string(n);
    if (offset < 0 || uint64_t(offset) >= fatbin.bytes.size()) {
      inv->problems.push_back(
          {BundleProblem::kMalformed,
           what + " points outside " + std::string(kFatbinSection) + "; the runtime would register garbage"});
      continue;
    }
    std::string_view at = fatbin.bytes.substr(offset);
    inv->problems.push_back(
        {BundleProblem::kMalformed, what + " points at " + std::string(kFatbinSection) + "+" + Hex(offset) +
                                        ", which is not where a bundle starts by the length fields"});
    if (StartsWithBundleMagic(at)) {
      ReadBundleAt(fatbin.bytes, offset, where, options, &inv->bundles);
      starts.insert(offset);
    }
  }
}

// The device code of one ELF file: a bare AMDGPU code object is itself the code; a host file
// carries it in its offload sections, read in this order: -fgpu-rdc sections, .llvm.offloading,
// then .hip_fatbin, whose wrappers are cross-checked against the bundles found there.
// `base`: where `bytes` starts in the file (non-zero for archive members).
void FromElf(std::string_view bytes, uint64_t base, const std::string& member,
             const BundleReadOptions& options, DeviceInventory* inv) {
  auto elf = Elf::create(llvm::StringRef(bytes.data(), bytes.size()));
  if (!Take(elf)) return;  // not ELF64 LE: no HIP host; the ELF parse reports real breakage
  if (elf->getHeader().e_machine == llvm::ELF::EM_AMDGPU) {
    ReadBundleAt(bytes, 0, {"", member, base}, options, &inv->bundles);
    return;
  }
  const OffloadSections found = FindOffloadSections(*elf, &inv->problems);
  ReadRdcSections(*elf, found.rdc, base, member, options, inv);
  for (const SectionView& v : found.offloading) {
    Bundle b =
        ReadOffloadSection(v.bytes, {std::string(kOffloadingSection), member, base + v.header->sh_offset});
    if (!b.entries.empty() || !b.problems.empty()) inv->bundles.push_back(std::move(b));
  }

  if (!found.fatbin.header) {
    // An object file's wrapper points at __hip_fatbin, which the link fills in.
    if (found.wrappers.header && elf->getHeader().e_type != llvm::ELF::ET_REL)
      inv->problems.push_back({BundleProblem::kMalformed, std::string(kWrapperSection) +
                                                              " registers fat binaries but there is no " +
                                                              std::string(kFatbinSection) + " section"});
    return;
  }
  size_t first = inv->bundles.size();
  const BundleContainer where{std::string(kFatbinSection), member, base + found.fatbin.header->sh_offset};
  ReadBundleSequence(found.fatbin.bytes, where, options, &inv->bundles, &inv->problems);
  if (found.wrappers.header)
    CrossCheckWrappers(*elf, found.fatbin, found.wrappers, first, where, options, inv);
}

}  // namespace

std::vector<ArchOffer> DeviceInventory::Offers() const {
  std::vector<ArchOffer> out;
  for (const Bundle& b : bundles)
    for (const BundleEntry& e : b.entries)
      if (e.size > 0 && e.target && !e.target->processor.empty() && e.parsed && e.parsed->device())
        out.push_back({*e.target, b.format == BundleFormat::kCcob});
  return out;
}

DeviceInventory FindDeviceCode(FileKind kind, std::string_view bytes, const BundleReadOptions& options) {
  DeviceInventory inv;
  switch (kind) {
    case FileKind::kElf: FromElf(bytes, 0, "", options, &inv); break;
    case FileKind::kOffloadBundle:
    case FileKind::kCompressedBundle:
      ReadBundleSequence(bytes, {}, options, &inv.bundles, &inv.problems);
      break;
    case FileKind::kArArchive: {
      std::string error;  // a corrupt archive is reported by the archive parse
      (void)ForEachArchiveMember(
          bytes,
          [&](std::string_view name, std::string_view data) {
            uint64_t base = data.data() - bytes.data();
            if (data.starts_with("\x7f"
                                 "ELF"))
              FromElf(data, base, std::string(name), options, &inv);
            else if (StartsWithBundleMagic(data))
              ReadBundleSequence(data, {"", std::string(name), base}, options, &inv.bundles, &inv.problems);
          },
          &error);
      break;
    }
    default: break;
  }
  return inv;
}

void DeviceOfferCache::Put(const std::string& real_path, std::vector<ArchOffer> offers) {
  auto slot = std::make_shared<Slot>();
  slot->offers = std::move(offers);
  slot->put = true;
  std::lock_guard<std::mutex> lock(mutex_);
  slots_[real_path] = std::move(slot);
}

const std::vector<ArchOffer>& DeviceOfferCache::Get(std::string_view real_path, std::string_view bytes) {
  static const std::vector<ArchOffer> kNone;
  if (!options_.read_device_code) return kNone;
  std::shared_ptr<Slot> slot;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = slots_.find(real_path);
    if (it == slots_.end()) it = slots_.emplace(std::string(real_path), std::make_shared<Slot>()).first;
    slot = it->second;
  }
  if (!slot->put)
    std::call_once(slot->once,
                   [&] { slot->offers = FindDeviceCode(FileKind::kElf, bytes, options_).Offers(); });
  return slot->offers;
}

}  // namespace rocm_audit
