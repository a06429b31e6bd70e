// malformed-bundle and bundle-id-mismatch as findings: where (section, member, offset),
// what format, and why; junk between bundles and .hipFatBinSegment wrappers the runtime
// would refuse.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "tests/support/audit_support.h"
#include "tests/support/gpu_fixtures.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;

TEST(BundleIntegrity, MislabelledEntryIsAnIdMismatch) {
  Report r = Audit({GpuTreePath("co/mislabelled.hsaco")}, "");
  auto f = FindingsOf(r, "bundle-id-mismatch");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kError);
  EXPECT_EQ(f[0].fields["format"], "plain");
  EXPECT_EQ(f[0].fields["offset"], 0);
  EXPECT_THAT(f[0].fields["reason"].get<std::string>(), HasSubstr("gfx906")) << f[0].message;
  EXPECT_TRUE(FindingsOf(r, "malformed-bundle").empty());
}

// Two broken entries of one bundle are two findings with two keys (the entry's ID is a key
// field): a waiver or baseline for one does not accept the other.
TEST(BundleIntegrity, FindingsAboutTwoEntriesHaveTwoKeys) {
  TempDir t;
  auto u64 = [](uint64_t v) { return std::string(reinterpret_cast<const char*>(&v), 8); };
  const std::vector<std::string> ids = {"hipv4-amdgcn-amd-amdhsa--gfx90a", "hipv4-amdgcn-amd-amdhsa--gfx942"};
  std::string table = "__CLANG_OFFLOAD_BUNDLE__" + u64(ids.size());
  const uint64_t data_at = 4096, junk = 64;
  for (size_t i = 0; i < ids.size(); ++i)  // appended: GCC 12 warns falsely on a sum of temporaries
    for (const std::string& part : {u64(data_at + i * junk), u64(junk), u64(ids[i].size()), ids[i]})
      table += part;
  WriteAll(t / "two.hsaco", table + std::string(data_at - table.size(), '\0') + std::string(2 * junk, 'J'));
  Report r = Audit({t / "two.hsaco"}, "");
  auto f = FindingsOf(r, "malformed-bundle");
  ASSERT_EQ(f.size(), 2u) << (f.empty() ? "" : f[0].message);
  std::set<std::string> entries, keys;
  for (const Finding& x : f) {
    entries.insert(x.fields.value("entry", ""));
    keys.insert(x.key);
    EXPECT_THAT(x.key, HasSubstr("|entry=" + x.fields.value("entry", ""))) << x.key;
  }
  EXPECT_EQ(entries, std::set<std::string>(ids.begin(), ids.end()));
  EXPECT_EQ(keys.size(), 2u);
}

TEST(BundleIntegrity, JunkBetweenBundlesIsMalformed) {
  TempDir t;
  std::string bundle = ReadAll(GpuTreePath("co/bundle.hsaco"));
  WriteAll(t / "two.hsaco", bundle + std::string(4096 - bundle.size() % 4096, '\0') + "JUNK" + bundle);
  Report r = Audit({t / "two.hsaco"}, "");
  auto f = FindingsOf(r, "malformed-bundle");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_THAT(f[0].fields["reason"].get<std::string>(), HasSubstr("neither zero fill nor a bundle"));
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
  EXPECT_THAT(f[0].fields["reason"].get<std::string>(), HasSubstr(".hipFatBinSegment record 0 has magic"));
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
}

// A mach value no table knows, or an unknown ABI version: a finding, and no target ID made
// of features alone.
TEST(BundleIntegrity, UnknownProcessorOrAbiVersionIsAFindingNotATarget) {
  TempDir t;
  std::string co = ReadAll(GpuTreePath("co/kernel_gfx90a.co"));
  std::string unknown_mach = co, unknown_abi = co;
  unknown_mach[48] = 0x7f;  // e_flags & EF_AMDGPU_MACH: unassigned
  unknown_abi[8] = 9;       // EI_ABIVERSION: no code object version 11
  WriteAll(t / "mach.co", unknown_mach);
  WriteAll(t / "abi.co", unknown_abi);
  Report r = Audit({t.path()}, "");
  auto f = FindingsOf(r, "unknown-gpu-target");
  ASSERT_EQ(f.size(), 2u);
  for (const Finding& x : f) EXPECT_EQ(x.severity, Severity::kWarning);
  EXPECT_THAT(FindingsOf(r, "unknown-gpu-target", t / "mach.co")[0].fields["reason"].get<std::string>(),
              HasSubstr("mach 0x7f"));
  EXPECT_THAT(FindingsOf(r, "unknown-gpu-target", t / "abi.co")[0].fields["reason"].get<std::string>(),
              HasSubstr("ABI version"));
  for (const FileFacts& file : r.files)
    if (file.device)
      for (const std::string& target : file.device->targets) EXPECT_NE(target[0], ':') << file.path;
  EXPECT_TRUE(FactsOf(r, t / "mach.co")->device->targets.empty());
}

TEST(BundleIntegrity, OverstatedCompressedSizeIsAWarning) {
  TempDir t;
  std::string raw = Decompressed(RealCcob());
  std::string payload = Zstd(raw);
  WriteAll(t / "over.hsaco", CcobHeaderBytes(2, 1, payload.size(), raw.size() + 100, Md5Low(raw)) + payload);
  Report r = Audit({t / "over.hsaco"}, "");
  auto f = FindingsOf(r, "malformed-bundle");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kWarning);
  EXPECT_THAT(f[0].fields["reason"].get<std::string>(), HasSubstr("read at its real size"));
  EXPECT_EQ(FactsOf(r, t / "over.hsaco")->device->targets, std::vector<std::string>{"gfx1030"});
}

}  // namespace
}  // namespace rocm_audit::testing
