// Bundles read by their length fields: planted magic bytes do not split a bundle, and an
// entry ID that names another processor than its code object is a mismatch.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "audit/gpu/bundle_reader.h"
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

// A plain bundle of one entry: `id`, then a real gfx906 code object.
std::string OneEntryBundle(const std::string& id, const std::string& code) {
  auto u64 = [](uint64_t v) { return std::string(reinterpret_cast<const char*>(&v), 8); };
  const uint64_t offset = kBundleMagic.size() + 8 + 24 + id.size();
  return std::string(kBundleMagic) + u64(1) + u64(offset) + u64(code.size()) + u64(id.size()) + id + code;
}

// Each bundle of a sequence is handed back once read, its bytes exactly, before the next
// is read: the caller gives back its pages then (a fat binary holds one bundle's pages at
// a time), and nothing is handed back of the zero fill between bundles.
TEST_F(GpuTree, EachBundleOfASequenceIsHandedBackOnceRead) {
  const std::string code = ReadAll(P("co/kernel_gfx906.co"));
  const std::string first = OneEntryBundle("hipv4-amdgcn-amd-amdhsa--gfx906", code);
  const std::string second = OneEntryBundle("hipv4-amdgcn-amd-amdhsa--gfx908", code);
  const std::string section = first + std::string(4096 - first.size() % 4096, '\0') + second;
  std::vector<std::pair<size_t, size_t>> handed;  // (offset in the section, size)
  std::vector<size_t> bundles_read_before;
  std::vector<Bundle> out;
  std::vector<BundleProblem> problems;
  BundleReadOptions options;
  options.bundle_read = [&](std::string_view bundle) {
    handed.emplace_back(bundle.data() - section.data(), bundle.size());
    bundles_read_before.push_back(out.size());
  };
  ReadBundleSequence(section, {}, options, &out, &problems);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_TRUE(problems.empty());
  const size_t second_at = section.size() - second.size();
  EXPECT_EQ(handed, (std::vector<std::pair<size_t, size_t>>{{0, first.size()}, {second_at, second.size()}}));
  EXPECT_EQ(bundles_read_before, (std::vector<size_t>{1, 2})) << "each handed back as soon as it is read";
}

// The runtime compares the whole entry ID with its own target ID: one with a control
// character serves no processor, and is malformed.
TEST_F(GpuTree, AnEntryIdWithAControlCharacterServesNothing) {
  const std::string code = ReadAll(P("co/kernel_gfx906.co"));
  DeviceInventory good =
      Inventory(FileKind::kOffloadBundle, OneEntryBundle("hipv4-amdgcn-amd-amdhsa--gfx906", code));
  EXPECT_THAT(AllProblems(good), ::testing::Not(HasSubstr("control character")));
  EXPECT_EQ(good.Offers().size(), 1u) << "the control: the same ID without the newline serves gfx906";
  for (const std::string id :
       {std::string("hipv4-amdgcn-amd-amdhsa--gfx906\n"), std::string("hipv4\n-amdgcn-amd-amdhsa--gfx906"),
        std::string("hipv4-amdgcn-amd-amdhsa--gfx906\x1b[2K")}) {
    DeviceInventory bad = Inventory(FileKind::kOffloadBundle, OneEntryBundle(id, code));
    EXPECT_THAT(AllProblems(bad), HasSubstr("contains a control character")) << id;
    EXPECT_TRUE(bad.Offers().empty()) << id;
  }
}

}  // namespace
}  // namespace rocm_audit::testing
