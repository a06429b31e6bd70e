#include "tests/support/sample_report.h"

namespace rocm_audit::testing {

Report SampleReport() {
  Report r;
  r.inputs.paths = {"/p"};
  FileFacts a;
  a.path = "/p/lib/libA.so";
  a.kind = "elf-shared-library";
  a.elf = ElfFacts{};
  a.elf->machine = "x86-64";
  r.files.push_back(a);
  r.rules = {{"undefined-symbol", Severity::kError, "an undefined symbol", "link it"},
             {"rpath-build-dir", Severity::kWarning, "a build-dir RUNPATH", "drop it"}};
  r.counts["elf"] = 1;
  Finding w{"rpath-build-dir", Severity::kWarning, "/p/lib/libA.so", "RUNPATH entry /build/x", "drop it"};
  w.fields["entry"] = "/build/x";
  Finding e{"undefined-symbol", Severity::kError, "/p/lib/libA.so", "undefined symbol f", "link libf"};
  e.fields["symbol"] = "f";
  e.fields["version"] = nullptr;
  r.findings = {e, w};
  return r;
}

}  // namespace rocm_audit::testing
