// stack-arch-gap: targets some device-code libraries of one closure serve and others not.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>

#include "audit/fs/path.h"
#include "tests/support/audit_support.h"
#include "tests/support/gpu_fixtures.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

// libapp loads libfat (gfx906, gfx90a:xnack+, gfx1030) and libccob (gfx1030, gfx1100).
TEST(StackArchGap, ReportedOnTheLibraryThatLacksTheTarget) {
  Report r = Audit({GpuTreePath("lib/libapp.so.1")}, "");
  std::map<std::string, Finding> by_arch;
  for (const Finding& f : FindingsOf(r, "stack-arch-gap")) by_arch[f.fields["arch"].get<std::string>()] = f;
  ASSERT_EQ(by_arch.size(), 3u);
  EXPECT_TRUE(by_arch.count("gfx906") && by_arch.count("gfx90a:xnack+") && by_arch.count("gfx1100"));
  const Finding& gap = by_arch["gfx1100"];
  EXPECT_EQ(gap.severity, Severity::kWarning);
  EXPECT_EQ(gap.file, GpuTreePath("lib/libfat.so.1"));  // where it can be fixed
  EXPECT_EQ(gap.fields["lacking"], (nlohmann::ordered_json{GpuTreePath("lib/libfat.so.1")}));
  EXPECT_EQ(gap.fields["serving"], (nlohmann::ordered_json{GpuTreePath("lib/libccob.so.1")}));
  EXPECT_EQ(gap.fields["consumers"], (nlohmann::ordered_json{GpuTreePath("lib/libapp.so.1")}));
  EXPECT_EQ(by_arch["gfx906"].file, GpuTreePath("lib/libccob.so.1"));
  // The facts behind it: both libraries, and the one target both serve.
  const FileFacts* facts = FactsOf(r, GpuTreePath("lib/libapp.so.1"));
  ASSERT_TRUE(facts && facts->device_stack);
  EXPECT_EQ(facts->device_stack->libraries.size(), 2u);
  EXPECT_EQ(facts->device_stack->common_targets, std::vector<std::string>{"gfx1030"});
}

// Two consumers of the same pair: one finding per library and target, naming both.
TEST(StackArchGap, OneFindingPerDefectWhateverTheNumberOfConsumers) {
  TempDir t;
  std::filesystem::copy(GpuTreePath("lib"), t / "lib");
  std::filesystem::copy_file(t / "lib/libapp.so.1", t / "lib/libapp2.so.1");
  Report r = Audit({t / "lib"}, "");
  auto f = FindingsOf(r, "stack-arch-gap");
  ASSERT_EQ(f.size(), 3u);
  for (const Finding& gap : f)
    EXPECT_EQ(gap.fields["consumers"],
              (nlohmann::ordered_json{t / "lib/libapp.so.1", t / "lib/libapp2.so.1"}))
        << gap.message;
}

TEST(StackArchGap, RequiredTargetsReplaceTheOfferedOnes) {
  AuditRequest o;
  o.paths = {GpuTreePath("lib/libapp.so.1")};
  std::string error;
  ASSERT_TRUE(ParseArchList("gfx1030,gfx1100", &o.checks.arch.targets, &error)) << error;
  Report r = AuditWith(o);
  auto f = FindingsOf(r, "stack-arch-gap");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].fields["arch"], "gfx1100");
}

// libapp2 loads libgeneric (gfx10-3-generic) and libccob (gfx1030, gfx1100): the generic
// target serves gfx1031..gfx1036, which libccob does not; libgeneric lacks gfx1100.
TEST(StackArchGap, ProcessorsServedThroughAGenericTargetCount) {
  Report r = Audit({GpuTreePath("generic/libapp2.so.1")}, "");
  std::multiset<std::string> gaps;
  for (const Finding& f : FindingsOf(r, "stack-arch-gap"))
    gaps.insert(std::string(BaseName(f.file)) + " " + f.fields["arch"].get<std::string>());
  EXPECT_EQ(gaps, (std::multiset<std::string>{"libccob.so.1 gfx1031", "libccob.so.1 gfx1032",
                                              "libccob.so.1 gfx1033", "libccob.so.1 gfx1034",
                                              "libccob.so.1 gfx1035", "libccob.so.1 gfx1036",
                                              "libgeneric.so.1 gfx1100"}));
}

TEST(StackArchGap, OneDeviceLibraryHasNoGap) {
  Report r = Audit({GpuTreePath("lib/libfat.so.1")}, "");
  EXPECT_TRUE(FindingsOf(r, "stack-arch-gap").empty());
}

}  // namespace
}  // namespace rocm_audit::testing
