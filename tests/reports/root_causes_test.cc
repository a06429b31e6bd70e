// Root causes: findings grouped by the rule's cause fields, one line each, most severe and
// most widespread first.
#include "reports/root_causes.h"

#include <gtest/gtest.h>

namespace rocm_audit::testing {
namespace {

Finding Unresolved(const std::string& file, const std::string& library) {
  Finding f{"unresolved-library", Severity::kError, file, "m", "h"};
  f.fields["library"] = library;
  return f;
}

Finding Missing(const std::string& referenced) {
  Finding f{"cmake-missing-file", Severity::kError,
            "/r/usr/lib/cmake/AMDDeviceLibs/AMDDeviceLibsConfig.cmake", "m", "h"};
  f.fields["package"] = "AMDDeviceLibs";
  f.fields["via"] = "IMPORTED_LOCATION";
  f.fields["referenced"] = referenced;
  return f;
}

Report Sample() {
  Report r;
  r.rules = {
      {
          .id = "unresolved-library",
          .severity = Severity::kError,
          .title = "t",
          .fix = "f",
          .key_fields = "library",
          .cause_fields = "library",
          .cause = "{library} not found, needed by {files}",
      },
      {
          .id = "cmake-missing-file",
          .severity = Severity::kError,
          .title = "t",
          .fix = "f",
          .cause_fields = "package via",
          .cause = "{package}: {n} {via} files not installed, under {referenced/} ({files})",
      },
      {
          .id = "dangling-symlink",
          .severity = Severity::kWarning,
          .title = "t",
          .fix = "f",
          .cause_fields = "*",
          .cause = "dangling symlinks: {files}",
      },
      {
          .id = "undefined-symbol",
          .severity = Severity::kError,
          .title = "t",
          .fix = "f",
          .cause = "undefined symbol {symbol*} in {files}",
      },
  };
  for (const char* file : {"/r/usr/bin/hipcc", "/r/usr/bin/a", "/r/usr/bin/b", "/r/usr/bin/c"})
    r.findings.push_back(Unresolved(file, "libgcc_s.so.1"));
  r.findings.push_back(Unresolved("/r/usr/lib/libLLVM.so.21", "libz.so.1"));
  r.findings.push_back({"dangling-symlink", Severity::kWarning, "/r/lib32", "m", "h"});
  r.findings.push_back({"dangling-symlink", Severity::kWarning, "/r/sbin", "m", "h"});
  for (const char* bc : {"ocml.bc", "ockl.bc", "oclc_isa_version_1100.bc"})
    r.findings.push_back(Missing(std::string("/usr/lib/amdgcn/bitcode/") + bc));
  for (const char* symbol : {"ps_getpid", "ps_pdread", "ps_pdwrite", "ps_lgetregs", "ps_lsetregs"}) {
    Finding f{"undefined-symbol", Severity::kError, "/r/usr/lib/libthread_db.so.1", "m", "h"};
    f.fields["symbol"] = symbol;
    r.findings.push_back(f);
  }
  r.findings.push_back(Unresolved("/r/usr/bin/d", "libgcc_s.so.1"));
  return r;
}

TEST(RootCauses, OneLinePerCauseMostSevereAndWidespreadFirst) {
  std::vector<RootCause> causes = RootCauses(Sample());
  ASSERT_EQ(causes.size(), 5u);
  EXPECT_EQ(causes[0].line, "libgcc_s.so.1 not found, needed by 5 files (hipcc, a, b, ...)");
  EXPECT_EQ(causes[0].findings, 5u);
  EXPECT_EQ(causes[1].line,
            "undefined symbol ps_getpid, ps_pdread, ps_pdwrite and 2 more in libthread_db.so.1");
  EXPECT_EQ(causes[2].line,
            "AMDDeviceLibs: 3 IMPORTED_LOCATION files not installed, under /usr/lib/amdgcn/bitcode "
            "(AMDDeviceLibsConfig.cmake)");
  EXPECT_EQ(causes[3].line, "libz.so.1 not found, needed by libLLVM.so.21");
  EXPECT_EQ(causes[4].severity, Severity::kWarning);
  EXPECT_EQ(causes[4].line, "dangling symlinks: 2 files (lib32, sbin)");
}

TEST(RootCauses, AcceptedFindingsAreNoCause) {
  Report r = Sample();
  for (Finding& f : r.findings)
    if (f.check == "unresolved-library") f.suppressed = Suppression{"waiver", "known", "w:1"};
  for (const RootCause& c : RootCauses(r)) EXPECT_NE(c.check, "unresolved-library");
}

}  // namespace
}  // namespace rocm_audit::testing
