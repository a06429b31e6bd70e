// missing-version: a DT_VERNEED version the resolved library does not define. ld.so
// refuses to load the object (the GLIBCXX-newer-than-the-target-system case).
#include "checks/registry.h"

namespace rocm_audit {
namespace {

constexpr Rule kRules[] = {
    {"missing-version", Severity::kError,
     "a needed symbol version (DT_VERNEED) that the resolved library does not define",
     "build against the oldest library version you target (e.g. an older libstdc++), "
     "or ship/require the newer library"},
};

std::string DescribeVersions(const ElfModel& lib) {
  std::string newest;
  for (const auto& v : lib.defined_versions) newest = v;  // verdef order is oldest first
  return newest.empty() ? "" : " (its newest is " + newest + ")";
}

void Run(const LoadableInput& in, FindingSink& sink) {
  for (const MissingVersion& m : in.load.binding.missing_versions) {
    const ElfModel& lib = *in.load.closure.objects[m.library_index].model;
    Finding f = MakeFinding(kRules[0], in.file.walked.path);
    f.message = "version " + m.version + " not found in " + m.library + " (" + m.resolved_path + ")" +
                DescribeVersions(lib) + "; " + std::to_string(m.symbols.size()) +
                (m.symbols.size() == 1 ? " symbol needs" : " symbols need") + " it";
    f.hint = "the file was built against a newer " + m.library +
             " than the one it loads: build against the oldest supported one, or depend on the newer one";
    f.fields["library"] = m.library;
    f.fields["version"] = m.version;
    f.fields["resolved_path"] = m.resolved_path;
    f.fields["symbols"] = m.symbols;
    sink.Add(std::move(f));
  }
}

}  // namespace

extern const Check kMissingVersionsCheck{"missing_versions", kRules, LoadableCheck{Run}};

}  // namespace rocm_audit
