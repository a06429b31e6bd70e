// The demo install tree the build makes (fixtures/make_demo_tree.sh): every defect of the
// field reports it carries must come out, with the fields the JSON contract names.
#include <gtest/gtest.h>

#include <set>

#include "tests/support/audit_support.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

const std::string kDemo = ROCM_AUDIT_DEMO_TREE;

class DemoTree : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { report_ = new Report(Audit({kDemo}, "", {}, "/nonexistent/ld.so.conf")); }
  static void TearDownTestSuite() { delete report_; }
  static Report* report_;
};
Report* DemoTree::report_ = nullptr;

TEST_F(DemoTree, MIOpenMissesTheX86InitialisersThatOnlyRockCompilerDefines) {
  auto f = FindingsOf(*report_, "undefined-symbol", kDemo + "/lib/libMIOpen.so.1");
  std::set<std::string> symbols;
  for (const Finding& x : f) {
    symbols.insert(x.fields["symbol"].get<std::string>());
    ASSERT_EQ(x.fields["providers"].size(), 1u);
    EXPECT_EQ(x.fields["providers"][0]["member"], "X86TargetInfo.cpp.o");
  }
  EXPECT_EQ(symbols, (std::set<std::string>{"LLVMInitializeX86TargetInfo", "LLVMInitializeX86Target",
                                            "LLVMInitializeX86TargetMC", "LLVMInitializeX86AsmPrinter",
                                            "LLVMInitializeX86AsmParser"}));
}

TEST_F(DemoTree, EveryPlantedDefectIsFound) {
  EXPECT_EQ(FindingsOf(*report_, "rpath-build-dir", kDemo + "/lib/librocblas.so.4").size(), 1u);
  EXPECT_EQ(FindingsOf(*report_, "missing-version", kDemo + "/lib/libhipfft.so.0").size(), 1u);
  EXPECT_EQ(FindingsOf(*report_, "unresolved-library", kDemo + "/bin/rocm-demo").size(), 1u);
  EXPECT_EQ(FindingsOf(*report_, "dangling-symlink", kDemo + "/lib/libamdhip64.so").size(), 1u);
  auto mixed = FindingsOf(*report_, "mixed-soname", kDemo + "/lib/libhipsparse.so.1");
  ASSERT_EQ(mixed.size(), 1u);
  EXPECT_EQ(mixed[0].fields["library"], "libamdhip64");
}

TEST_F(DemoTree, CleanLibrariesHaveNoFindings) {
  for (const Finding& f : report_->findings)
    EXPECT_TRUE(f.file != kDemo + "/lib/libamdhip64.so.6" && f.file != kDemo + "/lib/librocfft.so.0")
        << f.message;
}

}  // namespace
}  // namespace rocm_audit::testing
