// missing-arch-data: rocBLAS and hipBLASLt load Tensile kernels and solution tables per
// processor at run time. Device code for a processor whose data is absent fails with
// rocblas_status 14 ("excluded from build"); data without code is a half-built package.
#include <set>

#include "audit/support/path_text.h"
#include "checks/registry.h"

namespace rocm_audit {
namespace {

constexpr Rule kRules[] = {
    // Error: on a GPU whose Tensile data is missing every rocBLAS GEMM fails (rocblas_status 14) and
    // hipBLASLt has no kernels. Data without code is a warning: on that GPU the library fails for lack of its
    // own code objects whether the data is there or not, so the data only costs space (a GPU the packager
    // requires is missing-arch's, an error). lintian, auditwheel: none.
    {
        .id = "missing-arch-data",
        .severity = Severity::kError,
        .title = "rocBLAS/hipBLASLt device code for a processor without its Tensile data, or data without "
                 "code (rocblas_status 14 / \"excluded from build\" at run time)",
        .fix = "build Tensile for the same architecture list as the library (Tensile_ARCHITECTURE / "
               "GPU_TARGETS) and install its library/ directory",
        .key_fields = "arch missing",
        .explanation = "rocBLAS and hipBLASLt keep their GEMM kernels and solution tables outside the "
                       "library, in per-processor Tensile data files (TensileLibrary*_gfx90a*, *.co, "
                       "*.hsaco) in a library/ directory they look for near themselves. The finding says "
                       "that the library has device code for a processor while the data directory has "
                       "nothing for it, or that no data directory exists at all, or that --require-arch "
                       "asks for a processor the data lacks; or, the other way round, that the data covers "
                       "a processor the library has no code for. On a GPU without its data rocBLAS cannot "
                       "load its kernels: it reports that it cannot read the Tensile library files and "
                       "every GEMM returns rocblas_status 14 (rocblas_status_excluded_from_build), and "
                       "hipBLASLt, which keeps its kernels only there, has nothing to run. Data without "
                       "code is a warning: on that processor the library fails for lack of its own code "
                       "objects whether the data is there or not, so the data is dead weight, or a sign that "
                       "the library was built for fewer targets than Tensile. Build Tensile for the same "
                       "architecture list as the library (Tensile_ARCHITECTURE, GPU_TARGETS) and install its "
                       "library/ directory where the library looks.",
        .example = "/opt/rocm-6.2.0/lib/librocblas.so.4.2.60200\n"
                   "  error[missing-arch-data]: rocBLAS has device code for gfx1101 but "
                   "/opt/rocm-6.2.0/lib/rocblas/library has no data for it (no TensileLibrary*_gfx1101* / "
                   "*gfx1101*.co|.hsaco)\n"
                   "    fix: build and install Tensile data for gfx1101 (same GPU_TARGETS as the library)",
        .cause_fields = "arch missing",
        .cause = "{library} {missing} missing for {arch} in {files}",
        .fields = "arch:string library:string data_dir:path missing:string",
    },
};

Finding Missing(const std::string& file, const ArchDataDir& data, const std::string& processor,
                const char* missing) {
  Finding f = MakeFinding(kRules[0], file);
  f.fields["arch"] = processor;
  f.fields["library"] = data.library;
  f.fields["data_dir"] = data.dir;
  f.fields["missing"] = missing;
  return f;
}

void Run(const FileInput& in, FindingSink& sink) {
  if (!in.file.arch_data) return;
  const ArchDataDir& data = *in.file.arch_data;
  const std::string& file = in.file.walked.path;
  std::set<std::string> code;
  for (const ArchOffer& o : in.file.offers)
    if (!IsGenericProcessor(o.target.processor)) code.insert(o.target.processor);
  for (const std::string& p : code) {
    if (data.processors.count(p)) continue;
    Finding f = Missing(file, data, p, "data");
    if (data.dir.empty()) {
      f.SetMessage(data.library + " has device code for " + p + " but no Tensile data directory (searched " +
                   HostPaths(data.searched, ", ") + "); every GEMM fails with rocblas_status 14 at run time");
    } else {
      f.SetMessage(data.library + " has device code for " + p + " but " + HostPath(data.dir) +
                   " has no data for it (no TensileLibrary*_" + p + "* / *" + p + "*.co|.hsaco)");
    }
    f.SetHint("build and install Tensile data for " + p + " (same GPU_TARGETS as the library)");
    sink.Add(std::move(f));
  }
  // What the packager asked for, against the data (hipBLASLt's kernels live only there).
  for (const TargetId& want : in.options.arch.targets) {
    const std::string& p = want.processor;
    if (data.dir.empty() || data.processors.count(p) || code.count(p) || IsGenericProcessor(p)) continue;
    Finding f = Missing(file, data, p, "data");
    f.SetMessage("--require-arch " + want.str() + ", but " + HostPath(data.dir) + " has no " + data.library +
                 " data for " + p + " (no TensileLibrary*_" + p + "* / *" + p + "*.co|.hsaco)");
    f.SetHint("build " + data.library + "'s Tensile data for " + p + " (add it to GPU_TARGETS)");
    sink.Add(std::move(f));
  }
  if (code.empty()) return;  // a library without a fat binary: its data is all there is
  for (const std::string& p : data.processors) {
    if (code.count(p) || !ProcessorByName(p)) continue;
    Finding f = Missing(file, data, p, "code");
    f.severity = Severity::kWarning;  // the data adds no failure: see kRules
    f.SetMessage(HostPath(data.dir) + " has " + data.library + " data for " + p +
                 " but the library has no device code for it: the data is dead weight, or the "
                 "library was built for fewer targets than Tensile");
    f.SetHint("build the library and Tensile for the same GPU_TARGETS");
    sink.Add(std::move(f));
  }
}

}  // namespace

extern const Check kArchDataCoverageCheck{"arch_data_coverage", kRules, FileCheck{Run}, kNeedsDeviceCode};

}  // namespace rocm_audit
