// A Nix post-install hook audits one store path whose dependencies are other store paths:
// RUNPATH entries into them, links into them, and an interpreter in glibc's store path
// are how Nix builds, so none of it may be a warning.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/audit_support.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::UnorderedElementsAre;

const std::string kGlibc = "/nix/store/0123456789abcdfghijklmnpqrsvwxyz-glibc-2.40";
const std::string kHip = "/nix/store/1123456789abcdfghijklmnpqrsvwxyz-clr-6.2.2";
const std::string kApp = "/nix/store/2123456789abcdfghijklmnpqrsvwxyz-miopen-6.2.2";

TEST(StorePath, NixStyleStorePathHasNoWarnings) {
  TempDir t;
  ASSERT_TRUE(
      BuildTree(t.path(), "mklib ." + kGlibc +
                              "/lib/libc.so.6 libc.so.6 'int puts(const char* s) { return 0; }' -nostdlib\n"
                              "mklib ." +
                              kHip +
                              "/lib/libamdhip64.so.6 libamdhip64.so.6 'int hipInit(int f) { return f; }' "
                              "-nostdlib\n"
                              "mklib ." +
                              kApp +
                              "/lib/libMIOpen.so.1 libMIOpen.so.1 'int hipInit(int); int puts(const char*); "
                              "int m(void) { return hipInit(0) + puts(\"\"); }' -nostdlib -L." +
                              kHip + "/lib -L." + kGlibc +
                              "/lib -l:libamdhip64.so.6 -l:libc.so.6 -Wl,--enable-new-dtags,-rpath," + kApp +
                              "/lib:" + kHip + "/lib:" + kGlibc +
                              "/lib\n"
                              "mkexe ." +
                              kApp +
                              "/bin/miopen-driver 'int m(void); int main(void) { return m(); }' -nostdlib "
                              "-L." +
                              kApp + "/lib -l:libMIOpen.so.1 -Wl,-rpath-link,." + kHip + "/lib:." + kGlibc +
                              "/lib "
                              "-Wl,--enable-new-dtags,-rpath," +
                              kApp +
                              "/lib "
                              "-Wl,--dynamic-linker=" +
                              kGlibc +
                              "/lib/ld-linux-x86-64.so.2 -Wl,-e,main\n"
                              "ln -s " +
                              kHip + "/lib/libamdhip64.so.6 ." + kApp +
                              "/lib/libamdhip64.so.6\n"
                              "mkdir -p ." +
                              kApp + "/nix-support && ln -s " + kHip + " ." + kApp + "/nix-support/clr"));
  AuditRequest o;
  o.paths = {t.path() + kApp};
  o.roots = {t.path()};
  o.ld_so_conf = "/nonexistent";
  o.default_dirs = std::vector<std::string>{};
  Report r = AuditWith(o);
  for (const Finding& f : r.findings) EXPECT_EQ(f.severity, Severity::kNote) << f.check << ": " << f.message;
  // libMIOpen and the driver: the linked-in clr is not audited; the links into it are notes.
  const std::string app = t.path() + kApp;
  EXPECT_THAT(AuditedPaths(r), UnorderedElementsAre(app + "/lib/libMIOpen.so.1", app + "/bin/miopen-driver"));
  EXPECT_THAT(FilesOf(FindingsOf(r, "link-outside-tree")),
              UnorderedElementsAre(app + "/lib/libamdhip64.so.6", app + "/nix-support/clr"));
  EXPECT_EQ(UnresolvedOf(r, t.path() + kApp + "/bin/miopen-driver"), std::vector<std::string>{});
}

}  // namespace
}  // namespace rocm_audit::testing
