#include "audit/gpu/code_object.h"

#include <algorithm>

#include <llvm/BinaryFormat/ELF.h>
#include <llvm/BinaryFormat/MsgPackReader.h>
#include <llvm/Object/ELF.h>
#include <llvm/Support/AMDGPUMetadata.h>

#include "audit/support/llvm_expected.h"

namespace rocm_audit {
namespace {

using Elf = llvm::object::ELFFile<llvm::object::ELF64LE>;

// The next object of the stream; false at its end or on a malformed one.
bool Next(llvm::msgpack::Reader& r, llvm::msgpack::Object* o) {
  auto more = r.read(*o);
  return Take(more) && *more;
}

// Skips one MessagePack value (and everything nested in it) without building it: the
// metadata of a library TU can describe thousands of kernels, and only their count is
// wanted. Depth is bounded so hostile nesting cannot exhaust the stack.
bool SkipValue(llvm::msgpack::Reader& r, const llvm::msgpack::Object& o, int depth) {
  if (depth > 64) return false;
  size_t children = o.Kind == llvm::msgpack::Type::Array ? o.Length
                    : o.Kind == llvm::msgpack::Type::Map ? size_t(o.Length) * 2
                                                         : 0;
  for (size_t i = 0; i < children; ++i) {
    llvm::msgpack::Object child;
    if (!Next(r, &child) || !SkipValue(r, child, depth + 1)) return false;
  }
  return true;
}

// The length of the top-level map's "amdhsa.kernels" array (0 when absent).
std::optional<uint64_t> CountKernelsInMsgPack(llvm::StringRef blob) {
  llvm::msgpack::Reader r(blob);
  llvm::msgpack::Object root;
  if (!Next(r, &root) || root.Kind != llvm::msgpack::Type::Map) return std::nullopt;
  for (size_t i = 0; i < root.Length; ++i) {
    llvm::msgpack::Object key, value;
    if (!Next(r, &key) || !Next(r, &value)) return std::nullopt;
    if (key.Kind == llvm::msgpack::Type::String && key.Raw == "amdhsa.kernels" &&
        value.Kind == llvm::msgpack::Type::Array)
      return value.Length;
    if (!SkipValue(r, value, 0)) return std::nullopt;
  }
  return 0;
}

// Kernel count from one metadata note: V3+ (owner "AMDGPU", NT_AMDGPU_METADATA,
// MessagePack) or V2 (owner "AMD", NT_AMD_HSA_METADATA, YAML).
std::optional<uint64_t> KernelsInNote(llvm::StringRef owner, uint32_t type, llvm::ArrayRef<uint8_t> desc) {
  llvm::StringRef blob(reinterpret_cast<const char*>(desc.data()), desc.size());
  if (owner == "AMDGPU" && type == llvm::ELF::NT_AMDGPU_METADATA) { return CountKernelsInMsgPack(blob); }
  if (owner == "AMD" && type == llvm::ELF::NT_AMD_HSA_METADATA) {
    llvm::AMDGPU::HSAMD::Metadata md;
    if (llvm::AMDGPU::HSAMD::fromString(blob, md)) return std::nullopt;
    return md.mKernels.size();
  }
  return std::nullopt;
}

FeatureSetting V4Setting(uint32_t field, uint32_t any, uint32_t off, uint32_t on) {
  if (field == any) return FeatureSetting::kAny;
  if (field == off) return FeatureSetting::kOff;
  if (field == on) return FeatureSetting::kOn;
  return FeatureSetting::kUnsupported;
}

// The target a code object's header names (LLVM AMDGPUUsage, "ELF Header"): the processor
// is e_flags' EF_AMDGPU_MACH; the code object version is EI_ABIVERSION + 2 under the HSA OS
// ABI (V2-V6); xnack and sramecc are two-bit fields from V4 on (unsupported, any, off, on),
// single bits before (V2 has no sramecc bit); V6 adds the generic version in e_flags' top byte.
void ReadTarget(const Elf::Elf_Ehdr& h, CodeObjectInfo* out) {
  out->type = h.e_type;
  out->os_abi = h.e_ident[llvm::ELF::EI_OSABI];
  out->mach = h.e_flags & llvm::ELF::EF_AMDGPU_MACH;
  const ProcessorInfo* proc = ProcessorByMach(out->mach);
  out->processor = proc ? std::string(proc->name) : "";
  uint8_t abi = h.e_ident[llvm::ELF::EI_ABIVERSION];
  if (out->os_abi == llvm::ELF::ELFOSABI_AMDGPU_HSA && abi <= 4) out->code_object_version = abi + 2;
  uint32_t flags = h.e_flags;
  if (out->code_object_version >= 4) {
    out->xnack =
        V4Setting(flags & llvm::ELF::EF_AMDGPU_FEATURE_XNACK_V4, llvm::ELF::EF_AMDGPU_FEATURE_XNACK_ANY_V4,
                  llvm::ELF::EF_AMDGPU_FEATURE_XNACK_OFF_V4, llvm::ELF::EF_AMDGPU_FEATURE_XNACK_ON_V4);
    out->sramecc = V4Setting(
        flags & llvm::ELF::EF_AMDGPU_FEATURE_SRAMECC_V4, llvm::ELF::EF_AMDGPU_FEATURE_SRAMECC_ANY_V4,
        llvm::ELF::EF_AMDGPU_FEATURE_SRAMECC_OFF_V4, llvm::ELF::EF_AMDGPU_FEATURE_SRAMECC_ON_V4);
    if (out->code_object_version >= 6)
      out->generic_version = flags >> llvm::ELF::EF_AMDGPU_GENERIC_VERSION_OFFSET;
  } else {
    // V2/V3 cannot say "any": a clear bit is off (on processors that have the mode).
    bool v2 = out->code_object_version == 2;
    bool x = flags & (v2 ? llvm::ELF::EF_AMDGPU_FEATURE_XNACK_V2 : llvm::ELF::EF_AMDGPU_FEATURE_XNACK_V3);
    bool s = !v2 && (flags & llvm::ELF::EF_AMDGPU_FEATURE_SRAMECC_V3);
    if (!proc || proc->xnack) out->xnack = x ? FeatureSetting::kOn : FeatureSetting::kOff;
    if (!proc || proc->sramecc) out->sramecc = s ? FeatureSetting::kOn : FeatureSetting::kOff;
  }
}

// Counts the kernels the metadata notes of the PT_NOTE segments describe. The header tables
// and every note segment must lie within `total_size`, the code object's whole size; what lies
// past `prefix` (the bytes read) is not read: with the program headers beyond it the count
// stays unknown, and a note segment beyond it is skipped.
bool CountKernels(const Elf& elf, std::string_view prefix, uint64_t total_size, CodeObjectInfo* out,
                  std::string* error) {
  const auto& h = elf.getHeader();
  uint64_t table_end = h.e_phoff + uint64_t(h.e_phnum) * sizeof(Elf::Elf_Phdr);
  uint64_t sections_end = h.e_shoff + uint64_t(h.e_shnum) * sizeof(Elf::Elf_Shdr);
  if (table_end < h.e_phoff || table_end > total_size || sections_end < h.e_shoff ||
      sections_end > total_size) {
    *error = "program or section header table runs past the end of the code object";
    return false;
  }
  if (table_end > prefix.size()) return true;  // notes not available: kernels unknown
  auto phdrs = elf.program_headers();
  if (!phdrs) {
    *error = llvm::toString(phdrs.takeError());
    return false;
  }
  for (const auto& p : *phdrs) {
    if (p.p_type != llvm::ELF::PT_NOTE) continue;
    if (p.p_offset + p.p_filesz < p.p_offset || p.p_offset + p.p_filesz > total_size) {
      *error = "PT_NOTE segment runs past the end of the code object";
      return false;
    }
    if (p.p_offset + p.p_filesz > prefix.size()) continue;
    llvm::Error err = llvm::Error::success();
    // notes() accepts p_align 0 and 1 and then iterates with 4, so must we: getDesc()
    // asserts (or, without assertions, misreads) on an alignment that is not a power of 2.
    const uint64_t align = std::max<uint64_t>(p.p_align, 4);
    for (const auto& note : elf.notes(p, err)) {
      auto k = KernelsInNote(note.getName(), note.getType(), note.getDesc(align));
      if (k) out->kernels = out->kernels.value_or(0) + *k;
    }
    if (err) {
      *error = "broken note segment: " + llvm::toString(std::move(err));
      return false;
    }
  }
  return true;
}

}  // namespace

TargetId CodeObjectInfo::target_id() const {
  TargetId id;
  id.processor = processor;
  id.xnack = xnack;
  id.sramecc = sramecc;
  return id;
}

uint64_t CodeObjectPrefixNeeded(std::string_view head) {
  auto elf = Elf::create(llvm::StringRef(head.data(), head.size()));
  if (!Take(elf)) return 0;
  const auto& h = elf->getHeader();
  uint64_t table_end = h.e_phoff + uint64_t(h.e_phnum) * sizeof(Elf::Elf_Phdr);
  if (h.e_phoff > head.size() || table_end > head.size()) return 0;
  auto phdrs = elf->program_headers();
  if (!Take(phdrs)) return 0;
  uint64_t needed = std::max<uint64_t>(table_end, sizeof(Elf::Elf_Ehdr));
  for (const auto& p : *phdrs)
    if (p.p_type == llvm::ELF::PT_NOTE && p.p_offset + p.p_filesz >= p.p_offset)
      needed = std::max<uint64_t>(needed, p.p_offset + p.p_filesz);
  return needed;
}

bool InspectCodeObject(std::string_view prefix, uint64_t total_size, CodeObjectInfo* out,
                       std::string* error) {
  if (prefix.size() < llvm::ELF::EI_NIDENT || prefix.substr(0, 4) !=
                                                  "\x7f"
                                                  "ELF") {
    *error = "not an ELF file";
    return false;
  }
  if (uint8_t(prefix[llvm::ELF::EI_CLASS]) != llvm::ELF::ELFCLASS64 ||
      uint8_t(prefix[llvm::ELF::EI_DATA]) != llvm::ELF::ELFDATA2LSB) {
    *error = "not a 64-bit little-endian ELF, as every amdgcn code object is";
    return false;
  }
  auto elf = Elf::create(llvm::StringRef(prefix.data(), prefix.size()));
  if (!elf) {
    *error = llvm::toString(elf.takeError());
    return false;
  }
  const auto& h = elf->getHeader();
  if (h.e_machine != llvm::ELF::EM_AMDGPU) {
    *error = "ELF machine " + std::to_string(h.e_machine) + " is not EM_AMDGPU (224)";
    return false;
  }
  ReadTarget(h, out);
  return CountKernels(*elf, prefix, total_size, out, error);
}

}  // namespace rocm_audit
