// malformed-bundle and bundle-id-mismatch as findings: where (section, member, offset),
// what format, and why; junk between bundles and .hipFatBinSegment wrappers the runtime
// would refuse.
#include <gtest/gtest.h>

#include "tests/support/audit_support.h"
#include "tests/support/gpu_fixtures.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

TEST(BundleIntegrity, MislabelledEntryIsAnIdMismatch) {
  Report r = Audit({GpuTreePath("co/mislabelled.hsaco")}, "");
  auto f = FindingsOf(r, "bundle-id-mismatch");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kError);
  EXPECT_EQ(f[0].fields["format"], "plain");
  EXPECT_EQ(f[0].fields["offset"], 0);
  EXPECT_NE(f[0].fields["reason"].get<std::string>().find("gfx906"), std::string::npos) << f[0].message;
  EXPECT_TRUE(FindingsOf(r, "malformed-bundle").empty());
}

TEST(BundleIntegrity, JunkBetweenBundlesIsMalformed) {
  TempDir t;
  std::string bundle = ReadAll(GpuTreePath("co/bundle.hsaco"));
  WriteAll(t / "two.hsaco", bundle + std::string(4096 - bundle.size() % 4096, '\0') + "JUNK" + bundle);
  Report r = Audit({t / "two.hsaco"}, "");
  auto f = FindingsOf(r, "malformed-bundle");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].message.find("neither zero fill nor a bundle"), std::string::npos) << f[0].message;
  EXPECT_FALSE(f[0].fields.contains("offset"));  // outside any one bundle
  // The bundle before the junk is still inventoried.
  const FileFacts* facts = FactsOf(r, t / "two.hsaco");
  ASSERT_TRUE(facts && facts->device);
  EXPECT_EQ(facts->device->bundles.size(), 1u);
}

TEST(BundleIntegrity, WrapperTheRuntimeRefusesIsMalformed) {
  // Break the magic of libfat's first .hipFatBinSegment record with llvm-objcopy-19.
  TempDir t;
  std::string lib = GpuTreePath("lib/libfat.so.1");
  std::string wrappers = Section(lib, ".hipFatBinSegment");
  ASSERT_GE(wrappers.size(), 24u);
  wrappers[0] ^= 0x5a;
  WriteAll(t / "segment", wrappers);
  ASSERT_EQ(RunCommand("llvm-objcopy-19 --update-section .hipFatBinSegment=" + t / "segment " + lib + " " +
                       t / "libfat.so.1"),
            0);
  Report r = Audit({t / "libfat.so.1"}, "");
  auto f = FindingsOf(r, "malformed-bundle");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].message.find(".hipFatBinSegment record 0 has magic"), std::string::npos) << f[0].message;
  // The untouched original has none.
  EXPECT_TRUE(FindingsOf(Audit({lib}, ""), "malformed-bundle").empty());
}

TEST(BundleIntegrity, TruncatedSectionKeepsWhereAndWhy) {
  TempDir t;
  std::string ccob = RealCcob();
  WriteAll(t / "cut.hsaco", ccob.substr(0, ccob.size() / 2));
  Report r = Audit({t / "cut.hsaco"}, "");
  auto f = FindingsOf(r, "malformed-bundle");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].fields["format"], "ccob");
  EXPECT_EQ(f[0].fields["offset"], 0);
  EXPECT_NE(f[0].message.find("file+0x0"), std::string::npos) << f[0].message;
}

}  // namespace
}  // namespace rocm_audit::testing
