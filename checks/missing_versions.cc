// missing-version: a DT_VERNEED version the resolved library does not define. ld.so
// refuses to load the object (the GLIBCXX-newer-than-the-target-system case).
#include "audit/elf/version_order.h"
#include "checks/registry.h"

namespace rocm_audit {
namespace {

constexpr Rule kRules[] = {
    // Error: ld.so checks every DT_VERNEED entry before any code runs and refuses the object ("version
    // `GLIBCXX_3.4.32' not found"). auditwheel: repair refuses a wheel with versioned symbols newer than its
    // policy ("too-recent versioned symbols"); lintian: none (it does not resolve libraries).
    {
        .id = "missing-version",
        .severity = Severity::kError,
        .title = "a needed symbol version (DT_VERNEED) that the resolved library does not define",
        .fix = "build against the oldest library version you target (e.g. an older libstdc++), or "
               "ship/require the newer library",
        .key_fields = "library version",
        .explanation = "The file's DT_VERNEED table requires a symbol version (GLIBCXX_3.4.32, GLIBC_2.38, "
                       "a version node of a ROCm library) that the library the loader would actually load "
                       "does not define. ld.so checks every such requirement before any code runs and "
                       "refuses the whole object, even when no symbol of that version is ever called: users "
                       "see \"version `GLIBCXX_3.4.32' not found (required by ...)\" when the program "
                       "starts or the library is dlopened. It happens when the package was built against a "
                       "newer library than the target system has, typically a newer GCC's libstdc++ or a "
                       "newer glibc in the build container, or a newer sibling ROCm library than the one "
                       "installed. Build against the oldest version you support (the target distribution's "
                       "toolchain or a sysroot), or make the package require, and ship, the newer library. "
                       "The finding lists the symbols that need the version; they are not reported again as "
                       "undefined-symbol.",
        .example = "/opt/rocm-6.2.0/lib/librocblas.so.4.2.60200\n"
                   "  error[missing-version]: version GLIBCXX_3.4.32 not found in libstdc++.so.6 "
                   "(/usr/lib/x86_64-linux-gnu/libstdc++.so.6) (its newest is GLIBCXX_3.4.30); 3 symbols "
                   "need it\n"
                   "    fix: the file was built against a newer libstdc++.so.6 than the one it loads: build "
                   "against the oldest supported one, or depend on the newer one",
        .cause_fields = "library version",
        .cause = "version {version} not found in {library}, needed by {files}",
        .fields = "library:string version:string resolved_path:path symbols:[string]",
    },
};

// "(its newest is GLIBCXX_3.4.30)": the highest of the same family by version order, never
// GLIBC_PRIVATE or another name without a version number.
std::string DescribeVersions(const ElfModel& lib, std::string_view wanted) {
  std::string newest = NewestOfFamily(lib.defined_versions, wanted);
  return newest.empty() ? "" : " (its newest is " + newest + ")";
}

void Run(const LoadableInput& in, FindingSink& sink) {
  for (const MissingVersion& m : in.load.binding.missing_versions) {
    const ElfModel& lib = *in.load.closure.objects[m.library_index].model;
    Finding f = MakeFinding(kRules[0], in.file.walked.path);
    // The names as the report keeps them (BoundedView): the binding's are views into the file.
    const std::string version = BoundedView(m.version), library = BoundedView(m.library);
    f.SetMessage("version " + version + " not found in " + library + " (" + HostPath(m.resolved_path) + ")" +
                 BoundedView(DescribeVersions(lib, m.version)) + "; ");
    if (m.symbols.empty())
      f.message +=
          "no symbol of the file binds through it, but ld.so checks every DT_VERNEED entry and refuses to "
          "load the file";
    else
      f.message += std::to_string(m.symbols.size()) +
                   (m.symbols.size() == 1 ? " symbol needs" : " symbols need") + " it";
    f.SetHint("the file was built against a newer " + library +
              " than the one it loads: build against the oldest supported one, or depend on the newer one");
    f.fields["library"] = library;
    f.fields["version"] = version;
    f.fields["resolved_path"] = m.resolved_path;
    f.fields["symbols"] = nlohmann::ordered_json::array();
    for (std::string_view symbol : m.symbols) f.fields["symbols"].push_back(BoundedView(symbol));
    sink.Add(std::move(f));
  }
}

}  // namespace

extern const Check kMissingVersionsCheck{"missing_versions", kRules, LoadableCheck{Run}, kNeedsElfAndLoader};

}  // namespace rocm_audit
