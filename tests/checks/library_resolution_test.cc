// unresolved-library: reported once, where it can be fixed, with the symbols it hides.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/audit_support.h"
#include "tests/support/gpu_fixtures.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

// libtorch -> librccl -> libhsa (missing). When librccl is audited in the same run, the
// defect is reported once, on librccl; libtorch's closure still lists it.
TEST(UnresolvedLibrary, TransitiveMissingLibraryIsReportedWhereItIsNeeded) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
                        "mklib gone/libhsa.so.1 libhsa.so.1 'int hsa(void) { return 1; }' -nostdlib\n"
                        "mklib lib/librccl.so.1 librccl.so.1 'int hsa(void); int rccl(void) { return hsa(); "
                        "}' -nostdlib -Lgone -l:libhsa.so.1\n"
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

TEST(UnresolvedLibrary, SymbolsBehindAnUnresolvedLibraryAreAttributedToIt) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
                        "mklib tmp/libhsa.so.1 libhsa.so.1 'int hsa_init(void) { return 0; } int "
                        "hsa_shut_down(void) { return 0; }' -nostdlib\n"
                        "mklib lib/libA.so libA.so 'int hsa_init(void); int hsa_shut_down(void); int a(void) "
                        "{ return hsa_init() + hsa_shut_down(); }' "
                        "-nostdlib -Ltmp -l:libhsa.so.1\n"
                        "rm -r tmp"));
  Report r = Audit({t / "lib/libA.so"}, t.path());
  EXPECT_TRUE(FindingsOf(r, "undefined-symbol").empty());
  auto f = FindingsOf(r, "unresolved-library", t / "lib/libA.so");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].fields["library"], "libhsa.so.1");
  EXPECT_THAT(f[0].fields["unbound_symbols"].get<std::vector<std::string>>(),
              UnorderedElementsAre("hsa_init", "hsa_shut_down"));
  EXPECT_THAT(f[0].message, EndsWith("; 2 undefined symbols of libA.so cannot bind until it is found"));
}

// A GPU code object that carries a library's name is no candidate: ld.so skips an ELF file of
// another machine and searches on. It is no "found_in" either (the library is not there,
// whichever directory is searched), and once dropped after its own checks, the search that
// meets it again parses it afresh and gives the same verdict.
TEST(UnresolvedLibrary, AGpuCodeObjectUnderTheLibrarysNameIsSkippedAndNotNamedAsWhereItIs) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
                        "mklib tmp/libfoo.so.1 libfoo.so.1 'int foo(void) { return 1; }' -nostdlib\n"
                        "mklib lib/libuser.so libuser.so 'int foo(void); int u(void) { return foo(); }' "
                        "-nostdlib -Ltmp -l:libfoo.so.1 -Wl,--enable-new-dtags,-rpath,'$ORIGIN'\n"
                        "rm -r tmp"));
  WriteAll(t / "lib/libfoo.so.1", ReadAll(GpuTreePath("co/kernel_gfx906.co")));
  Report r = Audit({t / "lib"}, t.path());
  auto f = FindingsOf(r, "unresolved-library", t / "lib/libuser.so");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].fields["library"], "libfoo.so.1");
  EXPECT_FALSE(f[0].fields.contains("found_in")) << f[0].message;
  const auto& searched = f[0].fields["searched"];
  ASSERT_FALSE(searched.empty());
  EXPECT_EQ(searched[0]["outcome"], "skipped: wrong ELF class or machine") << searched.dump();
}

// The library is in the audited paths, only not where this object looks.
TEST(UnresolvedLibrary, LibraryBesideTheRequesterIsNamedWithTheRunpathThatReachesIt) {
  TempDir t;
  ASSERT_TRUE(
      BuildTree(t.path(),
                "mklib opt/rocm/lib/rocm/libhsa.so.1 libhsa.so.1 'int hsa(void) { return 1; }' -nostdlib\n"
                "mklib opt/rocm/lib/librccl.so.1 librccl.so.1 'int hsa(void); int r(void) { return hsa(); }' "
                "-nostdlib -Lopt/rocm/lib/rocm -l:libhsa.so.1"));
  Report r = Audit({t / "opt"}, t.path());
  auto f = FindingsOf(r, "unresolved-library", t / "opt/rocm/lib/librccl.so.1");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_THAT(f[0].hint, HasSubstr("add $ORIGIN/rocm to the RUNPATH of librccl.so.1"));
  EXPECT_EQ(f[0].fields["found_in"], (nlohmann::ordered_json{t / "opt/rocm/lib/rocm/libhsa.so.1"}));
}

}  // namespace
}  // namespace rocm_audit::testing
