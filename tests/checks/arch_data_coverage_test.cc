// missing-arch-data: rocBLAS code against its Tensile data directory, both ways.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "tests/support/audit_support.h"
#include "tests/support/gpu_fixtures.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

// The fixture's librocblas has code for gfx906 and gfx90a:xnack+; its library/ has data
// for gfx906 and gfx1030.
TEST(ArchDataCoverage, CodeWithoutDataAndDataWithoutCode) {
  Report r = Audit({GpuTreePath("rocblas")}, "");
  std::map<std::string, Finding> by_arch;
  for (const Finding& f : FindingsOf(r, "missing-arch-data"))
    by_arch[f.fields["arch"].get<std::string>()] = f;
  ASSERT_EQ(by_arch.size(), 2u);
  EXPECT_EQ(by_arch["gfx90a"].fields["missing"], "data");
  EXPECT_EQ(by_arch["gfx1030"].fields["missing"], "code");
  // Code without data fails every GEMM on that GPU; data without code adds no failure.
  EXPECT_EQ(by_arch["gfx90a"].severity, Severity::kError);
  EXPECT_EQ(by_arch["gfx1030"].severity, Severity::kWarning);
  EXPECT_EQ(by_arch["gfx90a"].fields["library"], "rocBLAS");
  const FileFacts* facts = FactsOf(r, GpuTreePath("rocblas/lib/librocblas.so.4"));
  ASSERT_TRUE(facts && facts->arch_data);
  EXPECT_EQ(facts->arch_data->processors, (std::vector<std::string>{"gfx906", "gfx1030"}));
}

TEST(ArchDataCoverage, NoDataDirectoryAtAllNamesWhereItLooked) {
  TempDir t;
  std::filesystem::create_directories(t / "lib");
  std::filesystem::copy_file(GpuTreePath("rocblas/lib/librocblas.so.4"), t / "lib/librocblas.so.4");
  Report r = Audit({t / "lib"}, "");
  auto f = FindingsOf(r, "missing-arch-data");
  ASSERT_EQ(f.size(), 2u);  // gfx906 and gfx90a, each without data
  EXPECT_EQ(f[0].fields["data_dir"], "");
}

// Debian's hipBLASLt: no fat binary in the library, every kernel in the multiarch
// lib/x86_64-linux-gnu/hipblaslt/library. Its data is what --require-arch is held against.
TEST(ArchDataCoverage, DataDirectoryOfALibraryWithoutFatBinaryMeetsTheRequirement) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
                        "mklib usr/lib/x86_64-linux-gnu/libhipblaslt.so.1 libhipblaslt.so.1 "
                        "'int hipblasLtCreate(void) { return 0; }' -nostdlib\n"
                        "mkdir -p usr/lib/x86_64-linux-gnu/hipblaslt/library\n"
                        "cd usr/lib/x86_64-linux-gnu/hipblaslt/library\n"
                        "touch Kernels.so-000-gfx1100.hsaco TensileLibrary_lazy_gfx90a.dat"));
  AuditRequest o;
  o.paths = {t / "usr"};
  o.roots = {t.path()};
  Report plain = AuditWith(o);
  const FileFacts* facts = FactsOf(plain, t / "usr/lib/x86_64-linux-gnu/libhipblaslt.so.1");
  ASSERT_TRUE(facts && facts->arch_data);
  EXPECT_EQ(facts->arch_data->library, "hipBLASLt");
  EXPECT_EQ(facts->arch_data->processors, (std::vector<std::string>{"gfx90a", "gfx1100"}));
  EXPECT_TRUE(FindingsOf(plain, "missing-arch-data").empty());

  std::string error;
  ASSERT_TRUE(ParseArchList("gfx90a,gfx942,gfx1100", &o.checks.arch.targets, &error)) << error;
  auto f = FindingsOf(AuditWith(o), "missing-arch-data");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].fields["arch"], "gfx942");
  EXPECT_EQ(f[0].fields["missing"], "data");
}

}  // namespace
}  // namespace rocm_audit::testing
