// rpath-* and mixed-soname findings.
#include <gtest/gtest.h>

#include "tests/test_support.h"

namespace rocm_audit::testing {
namespace {

Report AuditRunpath(TempDir& t, const std::string& runpath, std::vector<std::string> forbid = {}) {
  EXPECT_TRUE(BuildTree(t.path(), "mkdir -p prefix/lib/real && mklib prefix/lib/libA.so libA.so 'int a(void) { return 0; }' "
                                  "-nostdlib -Wl,--enable-new-dtags,-rpath,'" + runpath + "'"));
  AuditOptions o;
  o.paths = {t / "prefix"};
  o.roots = {t.path()};
  o.checks.forbid_rpath = std::move(forbid);
  o.checks.tmpdir = "/scratch/tmp";
  return AuditWith(o);
}

TEST(RpathEntries, BuildDirectoryIsReported) {
  TempDir t;
  Report r = AuditRunpath(t, "$ORIGIN:/build/rocblas/library/src");
  auto f = FindingsOf(r, "rpath-build-dir");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kWarning);
  EXPECT_EQ(f[0].fields["entry"], "/build/rocblas/library/src");
  EXPECT_EQ(f[0].fields["tag"], "RUNPATH");
}

TEST(RpathEntries, CMakeStyleBuildTreesAreReported) {
  TempDir t;
  Report r = AuditRunpath(t, "/home/me/rocblas-build/lib:/src/miopen/build-release/lib:/w/cmake-build-debug:"
                             "/w/_build/x:/opt/rocm/lib/builder");
  auto f = FindingsOf(r, "rpath-build-dir");
  ASSERT_EQ(f.size(), 4u);
  EXPECT_NE(f[0].message.find("(rocblas-build)"), std::string::npos) << f[0].message;
  // Not a build tree: reported only as absolute and outside the prefix.
  EXPECT_EQ(FindingsOf(r, "rpath-absolute-outside").size(), 1u);
}

TEST(RpathEntries, MissingBuildDirectoryIsAlsoAMissingDirectory) {
  TempDir t;
  Report r = AuditRunpath(t, "/build/miopen/lib");
  EXPECT_EQ(FindingsOf(r, "rpath-build-dir").size(), 1u);
  EXPECT_EQ(FindingsOf(r, "rpath-missing-dir").size(), 1u);
  EXPECT_TRUE(FindingsOf(r, "rpath-absolute-outside").empty());  // the build-dir finding says it
}

TEST(RpathEntries, TemporaryAndTmpdirAndNixVarEntriesAreReported) {
  TempDir t;
  Report r = AuditRunpath(t, "/tmp/nix-build-miopen/lib:/scratch/tmp/x:/nix/var/nix/builds/y");
  EXPECT_EQ(FindingsOf(r, "rpath-build-dir").size(), 3u);
}

TEST(RpathEntries, ForbidRpathGlobIsReported) {
  TempDir t;
  Report r = AuditRunpath(t, "/opt/rocm-6.2.2/lib", {"/opt/rocm-*"});
  auto f = FindingsOf(r, "rpath-build-dir");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].message.find("--forbid-rpath /opt/rocm-*"), std::string::npos);
}

TEST(RpathEntries, AbsoluteEntryOutsideThePrefixIsReported) {
  TempDir t;
  Report r = AuditRunpath(t, "/opt/rocm/lib:/prefix/lib/real");
  auto f = FindingsOf(r, "rpath-absolute-outside");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].fields["entry"], "/opt/rocm/lib");
}

TEST(RpathEntries, MissingDirectoryIsANote) {
  TempDir t;
  Report r = AuditRunpath(t, "$ORIGIN/../lib64:$ORIGIN/real");
  auto f = FindingsOf(r, "rpath-missing-dir");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kNote);
  EXPECT_EQ(f[0].fields["entry"], "$ORIGIN/../lib64");
}

TEST(RpathEntries, RelativeEntryIsReported) {
  TempDir t;
  Report r = AuditRunpath(t, "lib/real");
  EXPECT_EQ(FindingsOf(r, "rpath-relative").size(), 1u);
}

TEST(RpathEntries, CleanOriginRelativeRunpathHasNoFinding) {
  TempDir t;
  Report r = AuditRunpath(t, "$ORIGIN/real");
  EXPECT_TRUE(r.findings.empty()) << r.findings.front().message;
}

// libtorch -> librccl -> libhsa (missing). When librccl is audited in the same run, the
// defect is reported once, on librccl; libtorch's closure still lists it.
TEST(UnresolvedLibrary, TransitiveMissingLibraryIsReportedWhereItIsNeeded) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
      "mklib gone/libhsa.so.1 libhsa.so.1 'int hsa(void) { return 1; }' -nostdlib\n"
      "mklib lib/librccl.so.1 librccl.so.1 'int hsa(void); int rccl(void) { return hsa(); }' -nostdlib -Lgone -l:libhsa.so.1\n"
      "mklib lib/libtorch.so libtorch.so 'int rccl(void); int t(void) { return rccl(); }' "
      "-nostdlib -Llib -l:librccl.so.1 -Wl,--enable-new-dtags,-rpath,'$ORIGIN'\n"
      "rm -r gone"));
  Report both = Audit({t / "lib"}, t.path());
  EXPECT_EQ(FindingsOf(both, "unresolved-library", t / "lib/librccl.so.1").size(), 1u);
  EXPECT_TRUE(FindingsOf(both, "unresolved-library", t / "lib/libtorch.so").empty());
  EXPECT_EQ(UnresolvedOf(both, t / "lib/libtorch.so"), std::vector<std::string>{"libhsa.so.1"});
  // Audited alone, libtorch.so carries the finding: nothing else will report it.
  Report alone = Audit({t / "lib/libtorch.so"}, t.path());
  auto f = FindingsOf(alone, "unresolved-library", t / "lib/libtorch.so");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].fields["needed_by"], nlohmann::ordered_json::array({t / "lib/librccl.so.1"}));
}

TEST(MixedSoname, TwoMajorsInOneClosureIsAnError) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
      "mklib lib/libamdhip64.so.5 libamdhip64.so.5 'int hip5(void) { return 5; }' -nostdlib\n"
      "mklib lib/libamdhip64.so.6 libamdhip64.so.6 'int hip6(void) { return 6; }' -nostdlib\n"
      "mklib lib/librccl.so.1 librccl.so.1 'int hip5(void); int rccl(void) { return hip5(); }' -nostdlib -Llib -l:libamdhip64.so.5 -Wl,-rpath,'$ORIGIN'\n"
      "mklib lib/libtorch.so libtorch.so 'int hip6(void); int rccl(void); int t(void) { return hip6() + rccl(); }' "
      "-nostdlib -Llib -l:libamdhip64.so.6 -l:librccl.so.1 -Wl,--enable-new-dtags,-rpath,'$ORIGIN'"));
  Report r = Audit({t.path()}, t.path());
  auto closure = FindingsOf(r, "mixed-soname", t / "lib/libtorch.so");
  ASSERT_EQ(closure.size(), 1u);
  EXPECT_EQ(closure[0].severity, Severity::kError);
  EXPECT_EQ(closure[0].fields["scope"], "closure");
  EXPECT_EQ(closure[0].fields["library"], "libamdhip64");
  // Across the tree: one warning, on the file that needs the minority soname.
  int tree = 0;
  for (const Finding& f : FindingsOf(r, "mixed-soname"))
    if (f.fields["scope"] == "tree") {
      ++tree;
      EXPECT_EQ(f.severity, Severity::kWarning);
      EXPECT_EQ(f.file, t / "lib/librccl.so.1");
    }
  EXPECT_EQ(tree, 1);
}

}  // namespace
}  // namespace rocm_audit::testing
