#include "tests/support/sample_report.h"

namespace rocm_audit::testing {

void AddPlainLibraries(Report* report, int n) {
  for (int i = 0; i < n; ++i) {
    FileFacts f{"/p/lib/lib" + std::to_string(i) + ".so", "elf-shared-library", {}};
    f.elf.emplace();
    f.elf->soname = "lib" + std::to_string(i) + ".so.1";
    report->files.push_back(std::move(f));
  }
}

Report SampleReport() {
  Report r;
  r.inputs.paths = {"/p"};
  FileFacts a;
  a.path = "/p/lib/libA.so";
  a.kind = "elf-shared-library";
  a.elf = ElfFacts{};
  a.elf->machine = "x86-64";
  r.files.push_back(a);
  r.rules = {
      {
          .id = "undefined-symbol",
          .severity = Severity::kError,
          .title = "an undefined symbol",
          .fix = "link it",
      },
      {
          .id = "rpath-absolute-outside",
          .severity = Severity::kWarning,
          .title = "an absolute RUNPATH outside the prefix",
          .fix = "use $ORIGIN",
      },
  };
  r.counts["elf"] = 1;
  Finding w{"rpath-absolute-outside", Severity::kWarning, "/p/lib/libA.so", "RUNPATH entry /opt/x/lib",
            "use $ORIGIN"};
  w.fields["entry"] = "/opt/x/lib";
  Finding e{"undefined-symbol", Severity::kError, "/p/lib/libA.so", "undefined symbol f", "link libf"};
  e.fields["symbol"] = "f";
  e.fields["version"] = nullptr;
  r.findings = {e, w};
  return r;
}

Report GoldenReport() {
  Report r;
  r.inputs = {{"/p"}, {}, {}, {"/etc/ld.so.conf.d"}, {"/p/rocm-audit.suppress"}, ""};
  r.rules = {
      {
          .id = "undefined-symbol",
          .severity = Severity::kError,
          .title = "an undefined symbol",
          .fix = "link it",
          .key_fields = "symbol version",
          .explanation = "A symbol nothing defines.",
          .example = "lib/libA.so\n"
                     "  error[undefined-symbol]: undefined symbol f",
          .cause = "undefined symbol {symbol*} in {files}",
      },
      {
          .id = "unresolved-library",
          .severity = Severity::kError,
          .title = "a library the loader would not find",
          .fix = "ship it",
          .key_fields = "library",
          .explanation = "A DT_NEEDED nobody provides.",
          .cause_fields = "library",
          .cause = "{library} not found, needed by {files}",
      },
      {
          .id = "rpath-absolute-outside",
          .severity = Severity::kWarning,
          .title = "an absolute RUNPATH outside the prefix",
          .fix = "use $ORIGIN",
          .key_fields = "tag entry",
          .cause_fields = "entry",
          .cause = "absolute RPATH/RUNPATH entry {entry} outside the tree, in {files}",
      },
      {
          .id = "mixed-soname",
          .severity = Severity::kError,
          .title = "two majors",
          .fix = "rebuild",
          .key_fields = "library scope",
      },
  };
  r.disabled = {"mixed-soname"};
  r.counts = {{"elf", 3}, {"compressed-offload-bundle", 1}, {"other", 2}};

  FileFacts a{
      "/p/lib/libA.so.1", "elf-shared-library",
      ElfFacts{true, "x86-64", "libA.so.1", true, {"libgcc_s.so.1", "libc.so.6"}, true, {"$ORIGIN"}, {}}};
  a.closure = ClosureFacts{{"/lib/x86_64-linux-gnu/libc.so.6"}, {"libgcc_s.so.1"}};
  DeviceFacts device;
  BundleFacts bundle;
  bundle.section = ".hip_fatbin";
  bundle.format = "ccob";
  bundle.ccob_version = 2;
  bundle.compression = "zstd";
  bundle.compressed_size = 12000;
  bundle.uncompressed_size = 48000;
  bundle.hash = 0x1234abcd5678ef90ULL;
  BundleEntryFacts entry;
  entry.id = "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+";
  entry.kind = "hipv4";
  entry.target_id = "gfx90a:xnack+";
  entry.processor = "gfx90a";
  entry.features = ":xnack+";
  entry.offset = 4096;
  entry.size = 40000;
  entry.content = "code-object";
  entry.code_object = CodeObjectFacts{0x3f, "gfx90a", "on", "any", 5, 3, "dyn", std::nullopt};
  bundle.entries = {entry};
  device.bundles = {bundle};
  device.targets = {"gfx90a:xnack+"};
  device.fatbin_wrappers = 1;
  a.device = device;
  FileFacts b{"/p/bin/app", "elf-executable",
              ElfFacts{true, "x86-64", "", true, {"libA.so.1"}, false, {}, {}}};
  b.closure = ClosureFacts{{"/p/lib/libA.so.1", "/lib/x86_64-linux-gnu/libc.so.6"}, {"libgcc_s.so.1"}};
  FileFacts c{"/p/share/co/kernels_gfx1100.co", "compressed-offload-bundle", {}};
  c.device = device;
  c.device->targets = {"gfx1100"};
  r.files = {a, b, c};

  Finding undefined{"undefined-symbol", Severity::kError, "/p/lib/libA.so.1",
                    "undefined symbol f: none of the 2 objects in its load scope defines it", "link libf"};
  undefined.fields["symbol"] = "f";
  undefined.fields["version"] = nullptr;
  undefined.key = "undefined-symbol|lib/libA.so.1|symbol=f|version=null";
  Finding accepted = undefined;
  accepted.message = "undefined symbol ps_getpid: none of the 2 objects in its load scope defines it";
  accepted.fields["symbol"] = "ps_getpid";
  accepted.key = "undefined-symbol|lib/libA.so.1|symbol=ps_getpid|version=null";
  accepted.suppressed = Suppression{"waiver", "gdb provides ps_*", "/p/rocm-audit.suppress:2"};
  auto unresolved = [](const std::string& file) {
    Finding f{"unresolved-library", Severity::kError, file,
              "libgcc_s.so.1 needed by " + file + " is not found",
              "add the providing package as a dependency"};
    f.fields["library"] = "libgcc_s.so.1";
    f.fields["searched"] = nlohmann::ordered_json::array(
        {{{"directory", "/lib/x86_64-linux-gnu"}, {"source", "default"}, {"outcome", "not found"}}});
    f.key = "unresolved-library|" + file.substr(3) + "|library=libgcc_s.so.1";
    return f;
  };
  Finding rpath{"rpath-absolute-outside", Severity::kWarning, "/p/lib/libA.so.1",
                "RUNPATH entry /opt/x/lib is absolute and outside the audited prefix /p", "use $ORIGIN"};
  rpath.fields["entry"] = "/opt/x/lib";
  rpath.fields["tag"] = "RUNPATH";
  rpath.key = "rpath-absolute-outside|lib/libA.so.1|tag=RUNPATH|entry=/opt/x/lib";
  r.findings = {undefined, unresolved("/p/lib/libA.so.1"), accepted, rpath, unresolved("/p/bin/app")};
  return r;
}

}  // namespace rocm_audit::testing
