// missing-arch and ccob-isa-compat: each --require-arch target against the device code of
// one file. Standalone code objects named after one processor (Tensile's *_gfx90a.co) are
// per-arch pieces, not whole builds: missing-arch-data covers them, this check skips them.
#include <set>

#include "audit/fs/path.h"
#include "audit/gpu/arch_data.h"
#include "checks/registry.h"

namespace rocm_audit {
namespace {

constexpr Rule kRules[] = {
    // Error: on a GPU the packager requires (--require-arch) the HIP runtime finds no code object for the
    // device, and every kernel launch of the library fails (hipErrorNoBinaryForGpu). lintian, auditwheel:
    // none (neither reads device code).
    {
        .id = "missing-arch",
        .severity = Severity::kError,
        .title = "a required GPU target (--require-arch) that no device code in the file can serve",
        .fix = "add the target to GPU_TARGETS / AMDGPU_TARGETS (or --offload-arch) and rebuild",
        .key_fields = "arch",
        .explanation = "A GPU target the packager requires with --require-arch cannot be served by any "
                       "device code in the file: no code object or bitcode for that processor, for its "
                       "generic target (gfx9-generic, gfx11-generic, ...) or, with --isa-compat debian, for "
                       "a processor the distribution's patched runtime accepts instead, in every "
                       "xnack/sramecc mode the requirement covers. A requirement without a mode (gfx90a) "
                       "means every mode of the device, so code built for gfx90a:xnack- alone leaves the "
                       "xnack+ modes unserved, and the message lists them. On such a GPU the HIP runtime "
                       "finds no code object for the device: users see \"hipErrorNoBinaryForGpu: Unable to "
                       "find code object for all current devices!\" (hipErrorSharedObjectInitFailed in "
                       "newer releases) or the library's own errors when it launches a kernel. Add the "
                       "target to GPU_TARGETS (AMDGPU_TARGETS in older projects, or --offload-arch) and "
                       "rebuild. Only files that carry device code are held to the list, and files named "
                       "after one processor, such as Tensile's per-architecture code objects, are not: "
                       "missing-arch-data covers them.",
        .example = "/opt/rocm-6.2.0/lib/librocfft.so.0.1.60200\n"
                   "  error[missing-arch]: no device code for gfx1100; the file carries gfx900 gfx906 "
                   "gfx908 gfx90a gfx1030\n"
                   "    fix: add gfx1100 to GPU_TARGETS (or --offload-arch) and rebuild",
        .cause_fields = "arch",
        .cause = "no device code for required {arch} in {files}",
        .fields = "arch:string available:[string] unserved_modes:[string]",
    },
    // Warning: where the distribution's runtime looks compressed bundles up by exact ID, the required GPU
    // gets no code, as with missing-arch; but that is the patched runtime's behaviour, which the audit does
    // not see, while missing-arch holds on every runtime. lintian, auditwheel: none.
    {
        .id = "ccob-isa-compat",
        .severity = Severity::kWarning,
        .title = "a required GPU target served only through the distro's extended ISA compatibility, by a "
                 "compressed bundle the runtime looks up by exact ID",
        .fix = "build the target natively (add it to GPU_TARGETS), or build without --offload-compress",
        .key_fields = "arch",
        .explanation = "Debian, Gentoo and Solus patch the ROCm runtime so that a device can run code built "
                       "for another processor of its family (a gfx1032 running gfx1030 code, for instance), "
                       "and --isa-compat debian makes rocm-audit count such code as serving the device. The "
                       "patch only works through the runtime's lookup in uncompressed bundles: compressed "
                       "bundles (CCOB, built with --offload-compress) are unbundled by asking for the exact "
                       "target ID, which returns nothing for the other processor. A required target that "
                       "only this compatibility would serve, and only through compressed bundles, therefore "
                       "gets no code at run time, just as if it were missing (hipErrorNoBinaryForGpu, or "
                       "hipErrorSharedObjectInitFailed), even though the bundle seems to cover it; Solus "
                       "users met exactly this. Build the target natively (add it to GPU_TARGETS), or build "
                       "without --offload-compress so the compatibility lookup can work.",
        .example = "/usr/lib64/librocsparse.so.1.0.60200\n"
                   "  warning[ccob-isa-compat]: gfx1032 is served only through the distro's extended ISA "
                   "compatibility, by compressed bundles: the runtime asks CCOB unbundling for the exact ID "
                   "and gets nothing back, so the compatibility silently stops working\n"
                   "    fix: build gfx1032 natively, or build without --offload-compress",
        .cause_fields = "arch",
        .cause = "{arch} served only through ISA compatibility by compressed bundles, in {files}",
        .fields = "arch:string available:[string]",
    },
};
const Rule& kMissingArch = kRules[0];
const Rule& kCcobIsaCompat = kRules[1];

std::vector<std::string> Available(const std::vector<ArchOffer>& offers) {
  std::vector<std::string> ids;
  for (const ArchOffer& o : offers) ids.push_back(o.target.str());
  SortTargetIds(&ids);
  return ids;
}

std::string Join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : " ") + s;
  return out;
}

// Whether the file is a per-arch artifact (its name names a GPU processor).
bool IsPerArchArtifact(const WalkedFile& file) {
  if (file.kind == FileKind::kArArchive) return false;
  for (const std::string& p : ProcessorsInName(BaseName(file.path)))
    if (ProcessorByName(p)) return true;
  return false;
}

void Run(const FileInput& in, FindingSink& sink) {
  const ArchRequirement& policy = in.options.arch;
  const std::vector<ArchOffer>& offers = in.file.offers;
  const WalkedFile& file = in.file.walked;
  if (policy.targets.empty() || offers.empty() || IsPerArchArtifact(file)) return;
  for (const TargetId& want : policy.targets) {
    Coverage c = CheckRequirement(want, offers, policy.isa_compat);
    if (c.by == ServedBy::kNone) {
      Finding f = MakeFinding(kMissingArch, file.path);
      std::vector<std::string> available = Available(offers);
      f.SetMessage("no device code for " + want.str() +
                   (c.unserved.size() < c.modes ? " (unserved modes: " + Join(c.unserved) + ")" : "") +
                   "; the file carries " + Join(available));
      f.SetHint("add " + want.str() + " to GPU_TARGETS (or --offload-arch) and rebuild");
      f.fields["arch"] = want.str();
      f.fields["available"] = available;
      f.fields["unserved_modes"] = c.unserved;
      sink.Add(std::move(f));
    } else if (c.by == ServedBy::kIsaCompat && c.compat_only_compressed) {
      Finding f = MakeFinding(kCcobIsaCompat, file.path);
      f.SetMessage(want.str() +
                   " is served only through the distro's extended ISA compatibility, "
                   "by compressed bundles: the runtime asks CCOB unbundling for the exact ID and gets "
                   "nothing back, so the compatibility silently stops working");
      f.SetHint("build " + want.processor + " natively, or build without --offload-compress");
      f.fields["arch"] = want.str();
      f.fields["available"] = Available(offers);
      sink.Add(std::move(f));
    }
  }
}

}  // namespace

extern const Check kArchCoverageCheck{"arch_coverage", kRules, FileCheck{Run}, kNeedsDeviceCode};

}  // namespace rocm_audit
