// missing-arch and ccob-isa-compat: --require-arch against each file's device code.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "audit/fs/path.h"
#include "tests/support/audit_support.h"
#include "tests/support/gpu_fixtures.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;

Report AuditGpu(std::vector<std::string> rels, const std::string& archs,
                IsaCompat compat = IsaCompat::kNone) {
  AuditRequest o;
  for (const auto& rel : rels) o.paths.push_back(GpuTreePath(rel));
  std::string error;
  EXPECT_TRUE(ParseArchList(archs, &o.checks.arch.targets, &error)) << error;
  o.checks.arch.isa_compat = compat;
  o.jobs = 2;
  return AuditWith(o);
}

// "check arch file" for every finding that names an arch.
std::multiset<std::string> Verdicts(const Report& r) {
  std::multiset<std::string> out;
  for (const Finding& f : r.findings)
    if (f.fields.contains("arch"))
      out.insert(f.check + " " + f.fields["arch"].get<std::string>() + " " + std::string(BaseName(f.file)));
  return out;
}

TEST(ArchCoverage, MissingTargetNamesWhatTheFileCarries) {
  Report r = AuditGpu({"lib/libfat.so.1"}, "gfx906,gfx1100");
  auto f = FindingsOf(r, "missing-arch");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kError);
  EXPECT_EQ(f[0].fields["arch"], "gfx1100");
  EXPECT_EQ(f[0].fields["available"], (nlohmann::ordered_json{"gfx906", "gfx90a:xnack+", "gfx1030"}));
  EXPECT_THAT(f[0].hint, HasSubstr("add gfx1100 to GPU_TARGETS"));
}

TEST(ArchCoverage, PlainProcessorNeedsEveryXnackMode) {
  // libfat has gfx90a:xnack+ only: a gfx90a running xnack- has no code.
  Report r = AuditGpu({"lib/libfat.so.1"}, "gfx90a");
  auto f = FindingsOf(r, "missing-arch");
  ASSERT_EQ(f.size(), 1u);
  ASSERT_EQ(f[0].fields["unserved_modes"].size(), 2u);  // xnack- under either sramecc mode
  for (const auto& mode : f[0].fields["unserved_modes"])
    EXPECT_THAT(mode.get<std::string>(), HasSubstr("xnack-")) << mode;
  EXPECT_TRUE(FindingsOf(AuditGpu({"lib/libfat.so.1"}, "gfx90a:xnack+"), "missing-arch").empty());
}

// The Solus report: gfx1031 served only through the distro's ISA compatibility, by CCOBs
// the runtime looks up by exact ID.
TEST(ArchCoverage, CompatibilityThroughCompressedBundlesIsAWarning) {
  Report compat = AuditGpu({"lib/libccob.so.1", "lib/libfat.so.1"}, "gfx1031;gfx90a", IsaCompat::kDebian);
  EXPECT_EQ(Verdicts(compat),
            (std::multiset<std::string>{
                "ccob-isa-compat gfx1031 libccob.so.1", "ccob-isa-compat gfx1031 libfat.so.1",
                "missing-arch gfx90a libccob.so.1", "missing-arch gfx90a libfat.so.1"}));
  for (const Finding& f : FindingsOf(compat, "ccob-isa-compat")) EXPECT_EQ(f.severity, Severity::kWarning);
  // Without --isa-compat nothing serves gfx1031 at all.
  Report strict = AuditGpu({"lib/libccob.so.1"}, "gfx1031");
  EXPECT_EQ(Verdicts(strict), (std::multiset<std::string>{"missing-arch gfx1031 libccob.so.1"}));
}

TEST(ArchCoverage, PerArchCodeObjectsAreNotHeldToTheWholeList) {
  Report r = AuditGpu({"co/kernel_gfx90a.co"}, "gfx1100");
  EXPECT_TRUE(FindingsOf(r, "missing-arch").empty());
  // The same code under a name that names no processor is a whole build, and is held.
  auto f = FindingsOf(AuditGpu({"co/bundle.hsaco"}, "gfx1100"), "missing-arch");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].fields["arch"], "gfx1100");
}

// New-driver device code (.llvm.offloading) is held to --require-arch like bundles.
TEST(ArchCoverage, NewDriverOffloadBinariesCount) {
  Report r = AuditGpu({"lib/libnewdriver.a"}, "gfx906,gfx1030");
  auto f = FindingsOf(r, "missing-arch");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].fields["arch"], "gfx1030");
  EXPECT_EQ(f[0].fields["available"], (nlohmann::ordered_json{"gfx906", "gfx90a:xnack+"}));
}

TEST(ArchCoverage, NoRequirementNoFinding) {
  Report r = AuditGpu({"lib"}, "");
  EXPECT_TRUE(FindingsOf(r, "missing-arch").empty());
  EXPECT_TRUE(FindingsOf(r, "ccob-isa-compat").empty());
}

}  // namespace
}  // namespace rocm_audit::testing
