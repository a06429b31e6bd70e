// malformed-bundle, bundle-id-mismatch and unknown-gpu-target: what the bundle reader found
// wrong, as findings that say where (section, archive member, offset) and why.
#include "audit/support/hex.h"
#include "checks/registry.h"

namespace rocm_audit {
namespace {

constexpr Rule kRules[] = {
    // Error: the runtime cannot extract the device's code object from a damaged bundle, so the library's
    // kernels fail to load, or it reads garbage. A compressed bundle that only overstates its uncompressed
    // size is a warning: the runtime reads it at its real size. lintian, auditwheel: none.
    {
        .id = "malformed-bundle",
        .severity = Severity::kError,
        .title = "an offload bundle (plain or CCOB) or code object the HIP runtime cannot read: truncated, "
                 "sizes past the end, corrupt compression, hash mismatch, bad wrapper",
        .fix = "rebuild the device code (clang --offload-arch ... [--offload-compress]); a stripped or "
               "patched file may have cut the .hip_fatbin section",
        .key_fields = "section member offset entry",
        .explanation = "Device code the HIP runtime would read is damaged: an offload bundle whose entry "
                       "table or entries run past its end or overlap, a compressed bundle (CCOB) whose "
                       "sizes run past its container, whose zstd or zlib stream is truncated or corrupt, or "
                       "that claims more than --max-decompressed, a hash mismatch under --verify-hash, "
                       "bytes between bundles that are neither zero fill nor a bundle, an entry that is no "
                       "valid AMDGPU code object, a broken .llvm.offloading record, or a .hipFatBinSegment "
                       "wrapper that does not point where a bundle starts. The runtime locates code by the "
                       "same length fields and wrappers, so it cannot extract the code object for the "
                       "device: the library's kernels fail to load or launch (hipErrorNoBinaryForGpu, a "
                       "shared object initialization error), or the runtime reads garbage and crashes. The "
                       "message says where (section, archive member, offset) and what is wrong. The damage "
                       "is usually done after compilation, by a strip, objcopy or patchelf step that cut or "
                       "moved .hip_fatbin, a binary patch or an interrupted copy: rebuild the device code "
                       "and check the post-processing. A compressed bundle whose header only overstates its "
                       "uncompressed size is a warning, since the runtime reads it at its real size.",
        .example = "/opt/rocm-6.2.0/lib/librocsparse.so.1.0.60200\n"
                   "  error[malformed-bundle]: .hip_fatbin+0x2000: compressed bundle: total size 18874368 "
                   "runs past the end of the container (6291456 bytes left)\n"
                   "    fix: rebuild the device code (clang --offload-arch ... [--offload-compress]); a "
                   "stripped or patched file may have cut the .hip_fatbin section",
        .cause_fields = "",
        .cause = "malformed offload bundles in {files}: {reason}",
        .fields = "section?:string member?:string offset?:integer format?:string entry?:string reason:string",
    },
    // Error: the runtime hands the device code built for another target, which the loader refuses as an
    // incompatible ISA or which runs in the wrong xnack/sramecc mode. lintian, auditwheel: none.
    {
        .id = "bundle-id-mismatch",
        .severity = Severity::kError,
        .title = "a bundle entry whose code object is for another processor or feature mode than its ID says",
        .fix = "rebuild the bundle with clang-offload-bundler from the matching code objects",
        .key_fields = "section member offset entry",
        .explanation = "Each entry of an offload bundle says in its ID which processor and xnack/sramecc "
                       "mode its code object is for, and here the code object's own e_flags say otherwise: "
                       "another processor, or xnack or sramecc on where the ID says off (or the reverse). "
                       "The runtime picks the entry by its ID, so on the device the ID names it hands over "
                       "code built for another target: the loader refuses it as an incompatible ISA and the "
                       "kernels cannot run, or code built for the wrong memory mode runs and misbehaves. A "
                       "normal clang build does not produce this; it comes from bundles assembled or "
                       "relabelled by hand, for instance to make gfx1031 code pass for gfx1030, or from a "
                       "tool that rewrote entry IDs. Rebuild the bundle with clang-offload-bundler from "
                       "code objects that match their IDs, or compile for the wanted target.",
        .example = "/opt/rocm-6.2.0/lib/librocrand.so.1.1.60200\n"
                   "  error[bundle-id-mismatch]: .hip_fatbin+0x0: entry 'hipv4-amdgcn-amd-amdhsa--gfx1030' "
                   "names gfx1030 but the code object is for gfx1031 (e_flags mach 0x37)\n"
                   "    fix: rebuild the bundle with clang-offload-bundler from the matching code objects",
        .cause_fields = "",
        .cause = "bundle entries naming another target than their code object, in {files}",
        .fields = "section?:string member?:string offset?:integer format?:string entry?:string reason:string",
    },
    // Warning: no runtime of its toolchain's era loads the code object, so its kernels are missing on every
    // device; but the processor may only be newer than rocm-audit's table (LLVM 19's and the processors it
    // adds). lintian, auditwheel: none.
    {
        .id = "unknown-gpu-target",
        .severity = Severity::kWarning,
        .title = "a code object whose e_flags name no known AMDGPU processor, or whose code object ABI "
                 "version is unknown",
        .fix = "rebuild with a toolchain whose targets the shipped runtime knows; if the processor is newer "
               "than rocm-audit's table, this warning is rocm-audit's to fix",
        .key_fields = "section member offset entry",
        .explanation = "A code object's e_flags carry an EF_AMDGPU_MACH value that names no AMDGPU "
                       "processor rocm-audit knows (LLVM 19's table plus the newer processors rocm-audit "
                       "adds), or its EI_ABIVERSION is no code object version the loaders know. A runtime "
                       "of that toolchain's era cannot load such a code object, so it serves no GPU target: "
                       "its kernels are missing on every device, and launches fail as if the file had no "
                       "code for the GPU. It comes from device code compiled by a newer or development "
                       "toolchain than the runtime it ships with, or from a damaged header. Build with a "
                       "toolchain whose targets the shipped runtime knows. If the processor is real and "
                       "newer than rocm-audit's table, the warning is rocm-audit's to fix: report it.",
        .example = "/opt/rocm-6.2.0/lib/hipblaslt/library/extop_gfx1250.co\n"
                   "  warning[unknown-gpu-target]: file+0x0: code object: e_flags mach 0x49 names no AMDGPU "
                   "processor known to rocm-audit (LLVM 19's table and the newer processors it adds): no "
                   "runtime of that era can load it\n"
                   "    fix: rebuild with a toolchain whose targets the shipped runtime knows; if the "
                   "processor is newer than rocm-audit's table, this warning is rocm-audit's to fix",
        .cause_fields = "",
        .cause = "code objects for GPU targets no runtime knows, in {files}",
        .fields = "section?:string member?:string offset?:integer format?:string entry?:string reason:string",
    },
};
const Rule& kMalformedBundle = kRules[0];
const Rule& kBundleIdMismatch = kRules[1];
const Rule& kUnknownTarget = kRules[2];

const Rule& RuleOf(BundleProblem::Kind kind) {
  switch (kind) {
    case BundleProblem::kIdMismatch: return kBundleIdMismatch;
    case BundleProblem::kUnknownTarget: return kUnknownTarget;
    case BundleProblem::kMalformed:
    case BundleProblem::kOverstatedSize: break;
  }
  return kMalformedBundle;
}

std::string Where(const Bundle& b) {
  std::string where = b.member.empty() ? "" : "archive member " + b.member + ", ";
  where += b.section.empty() ? "file" : b.section;
  return where + "+" + Hex(b.offset);
}

void Emit(const std::string& file, const BundleProblem& p, const Bundle* b, FindingSink& sink) {
  Finding f = MakeFinding(RuleOf(p.kind), file);
  // The runtime reads such a bundle at its real size: worth fixing, not broken.
  if (p.kind == BundleProblem::kOverstatedSize) f.severity = Severity::kWarning;
  f.message = b ? Where(*b) + ": " + p.message : p.message;
  if (b) {
    if (!b->section.empty()) f.fields["section"] = b->section;
    if (!b->member.empty()) f.fields["member"] = b->member;
    f.fields["offset"] = b->offset;
    f.fields["format"] = std::string(BundleFormatName(b->format));
  }
  // Two entries of one bundle are two findings with two keys: a waiver for one is not one
  // for the other.
  if (p.entry) f.fields["entry"] = *p.entry;
  f.fields["reason"] = p.message;
  sink.Add(std::move(f));
}

void Run(const FileInput& in, FindingSink& sink) {
  const std::string& file = in.file.walked.path;
  for (const Bundle& b : in.file.device.bundles)
    for (const BundleProblem& p : b.problems) Emit(file, p, &b, sink);
  for (const BundleProblem& p : in.file.device.problems) Emit(file, p, nullptr, sink);
}

}  // namespace

extern const Check kBundleIntegrityCheck{"bundle_integrity", kRules, FileCheck{Run}, kNeedsDeviceCode};

}  // namespace rocm_audit
