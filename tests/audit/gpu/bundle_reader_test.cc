// Bundles read by their length fields: planted magic bytes do not split a bundle, and an
// entry ID that names another processor than its code object is a mismatch.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "audit/gpu/bundle_table.h"
#include "audit/gpu/device_code.h"
#include "tests/support/gpu_fixtures.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;

TEST_F(GpuTree, PayloadsThatContainTheMagicBytesDoNotSplitBundles) {
  // Write both magics into the zero fill of a real plain bundle (between its table and
  // its first entry), then store it uncompressed (zlib level 0): the payload now holds
  // "CCOB" and "__CLANG_OFFLOAD_BUNDLE__" verbatim. A magic-scanning reader cuts there.
  std::string raw = Decompressed(RealCcob());
  std::string planted = "CCOB\x02\x00\x01\x00" + std::string(kBundleMagic);
  raw.replace(2048, planted.size(), planted);
  std::string payload = Zlib(raw, 0);
  ASSERT_THAT(payload, HasSubstr("CCOB"));
  std::string ccob = CcobHeaderBytes(2, 0, payload.size(), raw.size(), Md5Low(raw)) + payload;
  std::string section = ccob + std::string(4096 - ccob.size() % 4096, '\0') + ccob;
  DeviceInventory inv = Inventory(FileKind::kCompressedBundle, section);
  ASSERT_EQ(inv.bundles.size(), 2u) << AllProblems(inv);
  EXPECT_EQ(ProblemCount(inv), 0u) << AllProblems(inv);
  // And the same plain bundle uncompressed: its table, not the planted magic, sets its end.
  std::string plain_section = raw + std::string(4096 - raw.size() % 4096, '\0') + raw;
  DeviceInventory plain = Inventory(FileKind::kOffloadBundle, plain_section);
  EXPECT_EQ(plain.bundles.size(), 2u) << AllProblems(plain);
}

TEST_F(GpuTree, EntryWhoseCodeObjectIsForAnotherProcessorIsAMismatch) {
  DeviceInventory inv = Inventory(FileKind::kOffloadBundle, ReadAll(P("co/mislabelled.hsaco")));
  ASSERT_EQ(inv.bundles.size(), 1u);
  ASSERT_EQ(inv.bundles[0].problems.size(), 1u);
  EXPECT_EQ(inv.bundles[0].problems[0].kind, BundleProblem::kIdMismatch);
  EXPECT_THAT(inv.bundles[0].problems[0].message, HasSubstr("for gfx906"));
}

}  // namespace
}  // namespace rocm_audit::testing
