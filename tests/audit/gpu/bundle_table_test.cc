// The plain bundle entry table: every inconsistency is an error, a short prefix asks for more.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "audit/gpu/bundle_table.h"
#include "tests/support/gpu_fixtures.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;

TEST_F(GpuTree, PlainBundleTableErrors) {
  std::string raw = Decompressed(RealCcob());
  std::string past = raw;
  // Entry 0 is the host: 24 bytes + its 27-byte ID; entry 1's size is the u64 at 32+51+8.
  ASSERT_EQ(raw.substr(32 + 24, 27), "host-x86_64-unknown-linux--");
  past[32 + 51 + 8 + 6] = char(0x7f);  // second entry's size: far past the end
  std::vector<BundleEntry> entries;
  uint64_t end = 0;
  std::string error;
  EXPECT_EQ(ParseBundleTable(past, past.size(), &entries, &end, &error), TableStatus::kError);
  EXPECT_THAT(error, HasSubstr("runs past the end"));
  std::string count = raw;
  count[24 + 6] = 1;  // entry count 2^48
  EXPECT_EQ(ParseBundleTable(count, count.size(), &entries, &end, &error), TableStatus::kError);
  EXPECT_THAT(error, HasSubstr("over rocm-audit's cap of 4096 entries")) << "the cap is the reason";
  // 4,097 entries fit a bundle of that size: the cap, not the size, refuses them.
  std::string cap = raw + std::string(4097 * 64, '\0');
  cap[24] = char(4097 & 0xff);
  cap[25] = char(4097 >> 8);
  cap[26] = cap[27] = cap[28] = cap[29] = cap[30] = cap[31] = 0;
  EXPECT_EQ(ParseBundleTable(cap, cap.size(), &entries, &end, &error), TableStatus::kError);
  EXPECT_THAT(error, HasSubstr("entry count 4097 is over rocm-audit's cap of 4096 entries"));
  EXPECT_EQ(ParseBundleTable(raw.substr(0, 40), raw.size(), &entries, &end, &error), TableStatus::kNeedMore);
}

}  // namespace
}  // namespace rocm_audit::testing
