// rpath-build-dir, rpath-relative, rpath-absolute-outside, rpath-missing-dir: the
// RUNPATH/RPATH entries the loader will use, on libraries linked by the real toolchain.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "checks/registry.h"
#include "tests/support/audit_support.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

Report AuditRunpath(TempDir& t, const std::string& runpath, std::vector<std::string> forbid = {}) {
  EXPECT_TRUE(
      BuildTree(t.path(),
                "mkdir -p prefix/lib/real && mklib prefix/lib/libA.so libA.so 'int a(void) { return 0; }' "
                "-nostdlib -Wl,--enable-new-dtags,-rpath,'" +
                    runpath + "'"));
  AuditRequest o;
  o.paths = {t / "prefix"};
  o.roots = {t.path()};
  o.checks.forbid_rpath = std::move(forbid);
  o.checks.tmpdir = "/scratch/tmp";
  return AuditWith(o);
}

// The RPATH/RUNPATH entries the findings of `check` name, in the order reported.
std::vector<std::string> Entries(const Report& r, const std::string& check) {
  std::vector<std::string> out;
  for (const Finding& f : FindingsOf(r, check)) out.push_back(f.fields["entry"]);
  return out;
}

TEST(RpathEntries, BuildDirectoryIsReported) {
  TempDir t;
  Report r = AuditRunpath(t, "$ORIGIN:/build/rocblas/library/src");
  auto f = FindingsOf(r, "rpath-build-dir");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kError);
  EXPECT_EQ(f[0].fields["entry"], "/build/rocblas/library/src");
  EXPECT_EQ(f[0].fields["tag"], "RUNPATH");
}

// Whoever can create a build-tree or temporary directory on the user's machine supplies the
// libraries, and whoever controls the working directory does for a relative or empty entry:
// errors, so that the hooks, which fail on errors, stop them.
TEST(RpathEntries, BuildTreeTemporaryAndRelativeEntriesAreErrors) {
  TempDir t;
  Report r = AuditRunpath(t, "/build/xyz:/home/me/src/tinyroc/build/lib:/tmp/roc/lib:lib::$ORIGIN");
  auto build = FindingsOf(r, "rpath-build-dir");
  auto relative = FindingsOf(r, "rpath-relative");
  ASSERT_EQ(build.size(), 3u);
  ASSERT_EQ(relative.size(), 2u);
  for (const Finding& f : build) EXPECT_EQ(f.severity, Severity::kError) << f.message;
  for (const Finding& f : relative) EXPECT_EQ(f.severity, Severity::kError) << f.message;
  EXPECT_EQ(FindRule("rpath-build-dir")->severity, Severity::kError);
  EXPECT_EQ(FindRule("rpath-relative")->severity, Severity::kError);
}

TEST(RpathEntries, CMakeStyleBuildTreesAreReported) {
  TempDir t;
  Report r = AuditRunpath(t,
                          "/home/me/rocblas-build/lib:/src/miopen/build-release/lib:/w/cmake-build-debug:"
                          "/w/_build/x:/opt/rocm/lib/builder");
  auto f = FindingsOf(r, "rpath-build-dir");
  ASSERT_EQ(f.size(), 4u);
  EXPECT_THAT(Entries(r, "rpath-build-dir"),
              UnorderedElementsAre("/home/me/rocblas-build/lib", "/src/miopen/build-release/lib",
                                   "/w/cmake-build-debug", "/w/_build/x"));
  EXPECT_THAT(f[0].message, HasSubstr("(rocblas-build)"));
  // Not a build tree: reported only as absolute and outside the prefix.
  EXPECT_THAT(Entries(r, "rpath-absolute-outside"), ElementsAre("/opt/rocm/lib/builder"));
}

// The build trees of Debian (debhelper's obj-<triplet> and debian/tmp, when dpkg-buildpackage
// runs in a home directory rather than an sbuild chroot's /build), meson, libtool and rpmbuild.
TEST(RpathEntries, PackagingBuildTreesAreReported) {
  TempDir t;
  Report r =
      AuditRunpath(t,
                   "/home/me/src/foo-1.0/obj-x86_64-linux-gnu/lib:/home/me/src/foo-1.0/debian/tmp/usr/lib:"
                   "/root/src/foo/builddir/lib:/home/me/src/foo/.libs:/home/me/rpmbuild/BUILD/foo-1.0/lib:"
                   "/opt/obj-store/lib:/usr/share/debian/tmpl:/opt/Build/lib");
  EXPECT_THAT(Entries(r, "rpath-build-dir"),
              UnorderedElementsAre("/home/me/src/foo-1.0/obj-x86_64-linux-gnu/lib",
                                   "/home/me/src/foo-1.0/debian/tmp/usr/lib", "/root/src/foo/builddir/lib",
                                   "/home/me/src/foo/.libs", "/home/me/rpmbuild/BUILD/foo-1.0/lib"));
  for (const Finding& f : FindingsOf(r, "rpath-build-dir")) {
    EXPECT_EQ(f.severity, Severity::kError) << f.message;
    if (f.fields["entry"].get<std::string>().find("/debian/tmp/") != std::string::npos)
      EXPECT_THAT(f.message, HasSubstr("(debian/tmp)"));
  }
  // An installed directory whose name only resembles one: absolute and outside the prefix.
  EXPECT_THAT(Entries(r, "rpath-absolute-outside"),
              UnorderedElementsAre("/opt/obj-store/lib", "/usr/share/debian/tmpl", "/opt/Build/lib"));
}

TEST(RpathEntries, MissingBuildDirectoryIsAlsoAMissingDirectory) {
  TempDir t;
  Report r = AuditRunpath(t, "/build/miopen/lib");
  EXPECT_THAT(Entries(r, "rpath-build-dir"), ElementsAre("/build/miopen/lib"));
  EXPECT_THAT(Entries(r, "rpath-missing-dir"), ElementsAre("/build/miopen/lib"));
  EXPECT_TRUE(FindingsOf(r, "rpath-absolute-outside").empty());  // the build-dir finding says it
}

TEST(RpathEntries, TemporaryAndTmpdirAndNixVarEntriesAreReported) {
  TempDir t;
  Report r = AuditRunpath(t, "/tmp/nix-build-miopen/lib:/scratch/tmp/x:/nix/var/nix/builds/y");
  EXPECT_THAT(Entries(r, "rpath-build-dir"),
              UnorderedElementsAre("/tmp/nix-build-miopen/lib", "/scratch/tmp/x", "/nix/var/nix/builds/y"));
}

TEST(RpathEntries, ForbidRpathGlobIsReported) {
  TempDir t;
  Report r = AuditRunpath(t, "/opt/rocm-6.2.2/lib", {"/opt/rocm-*"});
  auto f = FindingsOf(r, "rpath-build-dir");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_THAT(f[0].message, HasSubstr("--forbid-rpath /opt/rocm-*"));
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
  EXPECT_THAT(Entries(r, "rpath-relative"), ElementsAre("lib/real"));
}

TEST(RpathEntries, CleanOriginRelativeRunpathHasNoFinding) {
  TempDir t;
  Report r = AuditRunpath(t, "$ORIGIN/real");
  EXPECT_TRUE(r.findings.empty()) << r.findings.front().message;
}

// An empty entry is the working directory (glibc fillin_rpath), so it is relative too.
TEST(RpathEntries, EmptyEntryIsTheWorkingDirectory) {
  for (const char* runpath : {"$ORIGIN:", ":$ORIGIN", "$ORIGIN::/usr/lib"}) {
    TempDir t;
    Report r = AuditRunpath(t, runpath);
    auto f = FindingsOf(r, "rpath-relative");
    ASSERT_EQ(f.size(), 1u) << runpath;
    EXPECT_EQ(f[0].fields["entry"], "") << runpath;
  }
}

// The tool's own binary must never search a build tree or the working directory: run from
// a sysroot's library directory, an empty RUNPATH entry loads that directory's libc.
TEST(RpathEntries, RocmAuditItselfHasNoRelativeOrBuildTreeEntries) {
  Report r = Audit({ROCM_AUDIT_BINARY}, "");
  for (const char* check : {"rpath-relative", "rpath-build-dir"})
    EXPECT_TRUE(FindingsOf(r, check).empty()) << check << ": " << FindingsOf(r, check).front().message;
  const FileFacts* self = FactsOf(r, ROCM_AUDIT_BINARY);
  ASSERT_TRUE(self && self->elf);
  EXPECT_TRUE(self->closure && self->closure->unresolved.empty());
}

// Debian's MIGraphX: RUNPATH /usr/lib/x86_64-linux-gnu/migraphx/lib, a directory the
// package ships. Audited as installed (--root), that is where it belongs.
TEST(RpathEntries, AbsoluteEntryTheInstalledSystemHasIsFine) {
  TempDir t;
  ASSERT_TRUE(
      BuildTree(t.path(),
                "mkdir -p usr/lib/x86_64-linux-gnu/migraphx/lib\n"
                "mklib usr/lib/x86_64-linux-gnu/libmigraphx.so libmigraphx.so 'int m(void) { return 0; }' "
                "-nostdlib -Wl,--enable-new-dtags,-rpath,/usr/lib/x86_64-linux-gnu/migraphx/lib"));
  Report installed = Audit({t / "usr"}, t.path());
  EXPECT_TRUE(FindingsOf(installed, "rpath-absolute-outside").empty());
  // --relocatable: any absolute entry is a defect.
  AuditRequest o;
  o.paths = {t / "usr"};
  o.roots = {t.path()};
  o.checks.relocatable = true;
  auto f = FindingsOf(AuditWith(o), "rpath-absolute-outside");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_THAT(f[0].message, HasSubstr("--relocatable"));
}

// A store path's entries into itself or into the store paths it depends on are how Nix,
// Guix and Spack link: dependencies, not defects.
TEST(RpathEntries, EntriesIntoStorePathsAreDependencies) {
  TempDir t;
  Report r =
      AuditRunpath(t,
                   "/nix/store/0123456789abcdfghijklmnpqrsvwxyz-glibc-2.40/lib:"
                   "/gnu/store/0123456789abcdfghijklmnpqrsvwxyz-gcc-13.2.0-lib/lib:"
                   "/home/me/spack/opt/spack/linux-debian12-x86_64/gcc-12.2.0/hip-6.2.4-abcdefghij/lib:"
                   "/nix/store/not-a-hash/lib");
  auto f = FindingsOf(r, "rpath-absolute-outside");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].fields["entry"], "/nix/store/not-a-hash/lib");
}

}  // namespace
}  // namespace rocm_audit::testing
