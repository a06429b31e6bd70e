// missing-version: a DT_VERNEED version the resolved library does not define. ld.so
// refuses to load the object (the GLIBCXX-newer-than-the-target-system case).
#include "audit/elf/version_order.h"
#include "checks/registry.h"

namespace rocm_audit {
namespace {

constexpr Rule kRules[] = {
    {"missing-version", Severity::kError,
     "a needed symbol version (DT_VERNEED) that the resolved library does not define",
     "build against the oldest library version you target (e.g. an older libstdc++), "
     "or ship/require the newer library"},
};

// "(its newest is GLIBCXX_3.4.30)": the highest of the same family by version order, never
// GLIBC_PRIVATE or another name without a version number.
std::string DescribeVersions(const ElfModel& lib, const std::string& wanted) {
  std::string newest = NewestOfFamily(lib.defined_versions, wanted);
  return newest.empty() ? "" : " (its newest is " + newest + ")";
}

void Run(const LoadableInput& in, FindingSink& sink) {
  for (const MissingVersion& m : in.load.binding.missing_versions) {
    const ElfModel& lib = *in.load.closure.objects[m.library_index].model;
    Finding f = MakeFinding(kRules[0], in.file.walked.path);
    f.message = "version " + m.version + " not found in " + m.library + " (" + m.resolved_path + ")" +
                DescribeVersions(lib, m.version) + "; ";
    if (m.symbols.empty())
      f.message +=
          "no symbol of the file binds through it, but ld.so checks every DT_VERNEED entry and refuses to "
          "load the file";
    else
      f.message += std::to_string(m.symbols.size()) +
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
