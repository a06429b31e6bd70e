// malformed-bundle, bundle-id-mismatch and unknown-gpu-target: what the bundle reader found
// wrong, as findings that say where (section, archive member, offset) and why.
#include "audit/model/hex.h"
#include "checks/registry.h"

namespace rocm_audit {
namespace {

constexpr Rule kRules[] = {
    {"malformed-bundle", Severity::kError,
     "an offload bundle (plain or CCOB) or code object the HIP runtime cannot read: "
     "truncated, sizes past the end, corrupt compression, hash mismatch, bad wrapper",
     "rebuild the device code (clang --offload-arch ... [--offload-compress]); a "
     "stripped or patched file may have cut the .hip_fatbin section"},
    {"bundle-id-mismatch", Severity::kError,
     "a bundle entry whose code object is for another processor or feature mode than its ID says",
     "rebuild the bundle with clang-offload-bundler from the matching code objects"},
    {"unknown-gpu-target", Severity::kWarning,
     "a code object whose e_flags name no known AMDGPU processor, or whose code object ABI version is "
     "unknown",
     "rebuild with a toolchain whose targets the shipped runtime knows; if the processor is newer than "
     "rocm-audit's table, this warning is rocm-audit's to fix"},
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

extern const Check kBundleIntegrityCheck{"bundle_integrity", kRules, FileCheck{Run}};

}  // namespace rocm_audit
