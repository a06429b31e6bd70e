// Device code found wherever it sits: .hip_fatbin holding plain and compressed bundles,
// -fgpu-rdc objects, archive members, standalone bundles, bare code objects; each bundle
// lists what clang-offload-bundler-19 lists for it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "audit/gpu/device_code.h"
#include "audit/gpu/offload_binary.h"
#include "tests/support/gpu_fixtures.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;

TEST_F(GpuTree, SharedLibraryHoldsPlainAndCompressedBundlesInOneSection) {
  std::string bytes = ReadAll(P("lib/libfat.so.1"));
  DeviceInventory inv = Inventory(FileKind::kElf, bytes);
  ASSERT_EQ(inv.bundles.size(), 2u) << AllProblems(inv);
  EXPECT_EQ(inv.bundles[0].format, BundleFormat::kPlain);
  EXPECT_EQ(inv.bundles[1].format, BundleFormat::kCcob);
  EXPECT_EQ(inv.bundles[1].ccob_version, 2);
  EXPECT_EQ(inv.bundles[1].compression, "zstd");
  EXPECT_EQ(inv.bundles[1].offset % 4096, 0u);
  EXPECT_EQ(inv.wrappers, 2u);  // both bundles registered, both cross-checked
  EXPECT_EQ(ProblemCount(inv), 0u) << AllProblems(inv);
  EXPECT_EQ(Targets(inv), (std::set<std::string>{"gfx906", "gfx90a:xnack+", "gfx1030"}));
  // Every device entry (the host entry has no target processor) carries its code object.
  const BundleEntry* xnack = nullptr;
  size_t device_entries = 0;
  for (const Bundle& b : inv.bundles)
    for (const BundleEntry& e : b.entries) {
      if (e.size == 0 || !e.parsed || !e.parsed->device()) continue;
      ++device_entries;
      ASSERT_TRUE(e.target && e.code_object) << e.id;
      EXPECT_EQ(e.code_object->processor, e.target->processor);
      EXPECT_EQ(e.code_object->kernels, 1u) << e.id;
      EXPECT_GE(e.code_object->code_object_version, 4);
      if (e.target->processor == "gfx90a") xnack = &e;
    }
  EXPECT_EQ(device_entries, inv.Offers().size());
  ASSERT_TRUE(xnack);
  EXPECT_EQ(xnack->code_object->xnack, FeatureSetting::kOn);
  EXPECT_EQ(xnack->code_object->sramecc, FeatureSetting::kAny);
}

TEST_F(GpuTree, TwoCompressedBundlesInOneSectionAreBothRead) {
  DeviceInventory inv = Inventory(FileKind::kElf, ReadAll(P("lib/libccob.so.1")));
  ASSERT_EQ(inv.bundles.size(), 2u) << AllProblems(inv);
  EXPECT_EQ(ProblemCount(inv), 0u) << AllProblems(inv);
  EXPECT_EQ(Targets(inv), (std::set<std::string>{"gfx1030", "gfx1100"}));
}

TEST_F(GpuTree, EveryBundleAgreesWithClangOffloadBundlerList) {
  for (const char* lib : {"lib/libfat.so.1", "lib/libccob.so.1", "obj/plain.o"}) {
    std::string bytes = ReadAll(P(lib));
    DeviceInventory inv = Inventory(FileKind::kElf, bytes);
    for (const Bundle& b : inv.bundles) {
      TempDir tmp;
      WriteAll(tmp / "one", std::string_view(bytes).substr(b.file_offset, b.compressed_size));
      std::string listed;
      ASSERT_EQ(RunCommand("clang-offload-bundler-19 --list --type=o --input=" + tmp / "one", &listed), 0);
      std::set<std::string> theirs, ours;
      std::istringstream lines(listed);
      for (std::string l; std::getline(lines, l);)
        if (!l.empty()) theirs.insert(l);
      for (const BundleEntry& e : b.entries) ours.insert(e.id);
      EXPECT_EQ(ours, theirs) << lib << " bundle at " << b.offset;
    }
  }
}

TEST_F(GpuTree, RdcObjectArchiveMembersAndStandaloneFiles) {
  DeviceInventory rdc = Inventory(FileKind::kElf, ReadAll(P("obj/rdc.o")));
  ASSERT_EQ(rdc.bundles.size(), 1u);
  EXPECT_EQ(rdc.bundles[0].format, BundleFormat::kObjectSections);
  EXPECT_EQ(Targets(rdc), (std::set<std::string>{"gfx906", "gfx1030"}));
  for (const BundleEntry& e : rdc.bundles[0].entries)
    if (e.size > 0 && e.parsed && e.parsed->device()) EXPECT_EQ(e.content, "bitcode") << e.id;
  EXPECT_EQ(ProblemCount(rdc), 0u) << AllProblems(rdc);

  DeviceInventory ar = Inventory(FileKind::kArArchive, ReadAll(P("lib/libdevice.a")));
  ASSERT_EQ(ar.bundles.size(), 2u);
  std::set<std::string> members;
  for (const Bundle& b : ar.bundles) members.insert(b.member);
  EXPECT_EQ(members, (std::set<std::string>{"plain.o", "rdc.o"}));

  DeviceInventory plain = Inventory(FileKind::kOffloadBundle, ReadAll(P("co/bundle.hsaco")));
  DeviceInventory ccob = Inventory(FileKind::kCompressedBundle, ReadAll(P("co/compressed.hsaco")));
  DeviceInventory bare = Inventory(FileKind::kElf, ReadAll(P("co/kernel_gfx90a.co")));
  for (const DeviceInventory* inv : {&plain, &ccob, &bare}) {
    EXPECT_EQ(Targets(*inv), std::set<std::string>{"gfx90a"});
    EXPECT_EQ(ProblemCount(*inv), 0u) << AllProblems(*inv);
  }
  EXPECT_EQ(bare.bundles[0].format, BundleFormat::kCodeObject);
}

// --offload-new-driver -fgpu-rdc: OffloadBinary records in .llvm.offloading, listed as
// llvm-objdump-19 --offloading lists them.
TEST_F(GpuTree, NewDriverOffloadBinariesAreInventoried) {
  DeviceInventory inv = Inventory(FileKind::kElf, ReadAll(P("obj/newdriver.o")));
  ASSERT_EQ(inv.bundles.size(), 1u) << AllProblems(inv);
  const Bundle& b = inv.bundles[0];
  EXPECT_EQ(b.format, BundleFormat::kOffloadBinary);
  EXPECT_EQ(b.section, ".llvm.offloading");
  EXPECT_EQ(ProblemCount(inv), 0u) << AllProblems(inv);
  EXPECT_EQ(Targets(inv), (std::set<std::string>{"gfx906", "gfx90a:xnack+"}));
  std::string listed;
  ASSERT_EQ(RunCommand("llvm-objdump-19 --offloading " + P("obj/newdriver.o"), &listed), 0);
  std::set<std::string> theirs, ours;
  std::istringstream lines(listed);
  for (std::string l; std::getline(lines, l);)
    if (l.rfind("arch", 0) == 0) theirs.insert(l.substr(l.find_last_of(' ') + 1));
  for (const BundleEntry& e : b.entries) {
    EXPECT_EQ(e.content, "bitcode") << e.id;
    ours.insert(e.target->str());
  }
  EXPECT_EQ(ours, theirs);
  // Inside a static library too.
  DeviceInventory ar = Inventory(FileKind::kArArchive, ReadAll(P("lib/libnewdriver.a")));
  ASSERT_EQ(ar.bundles.size(), 1u);
  EXPECT_EQ(ar.bundles[0].member, "newdriver.o");
}

// Every truncation and a sweep of flipped bytes: problems, never a crash or a read past
// the record (LLVM 19's reader trusts the string table and the image range).
TEST_F(GpuTree, DamagedOffloadBinariesAreProblemsNotCrashes) {
  std::string section = Section(P("obj/newdriver.o"), ".llvm.offloading");
  ASSERT_GT(section.size(), 100u);
  for (size_t n = 1; n < section.size(); n += 7) {
    Bundle b = ReadOffloadSection(std::string_view(section).substr(0, n), {".llvm.offloading", "", 0});
    size_t whole = b.entries.size();
    EXPECT_TRUE(whole < 2 || !b.problems.empty() || n == section.size()) << n;
  }
  for (size_t at = 0; at < 96; ++at) {
    std::string bad = section;
    bad[at] = char(0xff);
    ReadOffloadSection(bad, {".llvm.offloading", "", 0});  // must not crash (ASan runs catch overreads)
  }
  std::string lying = section;
  lying[8] = char(0xff);  // size far past the section
  EXPECT_FALSE(ReadOffloadSection(lying, {".llvm.offloading", "", 0}).problems.empty());
}

// Found by fuzzing: LLVM 19 reads a record's entry in place as an 8-byte aligned structure
// without checking the alignment of its offset (UBSan: misaligned member access).
TEST(OffloadSection, UnalignedEntryIsAProblemNotARead) {
  std::string bytes =
      ReadAll(std::string(ROCM_AUDIT_SOURCE_DIR) + "/fuzz/regressions/offload_binary/unaligned-entry");
  ASSERT_GT(bytes.size(), 64u);
  Bundle b = ReadOffloadSection(bytes, BundleContainer{".llvm.offloading", "", 0});
  ASSERT_EQ(b.problems.size(), 1u);
  EXPECT_THAT(b.problems[0].message, HasSubstr("not 8-byte aligned"));
  EXPECT_TRUE(b.entries.empty());
}

}  // namespace
}  // namespace rocm_audit::testing
