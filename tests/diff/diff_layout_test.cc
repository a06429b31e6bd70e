// Pairs of trees whose files sit at another install prefix on each side
// (fixtures/make_diff_pairs.sh's layout/: a DESTDIR staging tree of a Debian build against
// an /opt/rocm-6.2 install), and the cap of cmake-dependency-dropped's target list (cap/).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "diff/diff.h"
#include "diff/installed_layout.h"
#include "tests/diff/findings_of.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::ElementsAre;
using Json = nlohmann::ordered_json;

const std::string kPairs = ROCM_AUDIT_DIFF_PAIRS;

Report DiffPaths(const std::string& from, const std::string& to) {
  AuditRequest request;
  request.ld_so_conf = "/nonexistent";
  Report report;
  std::string error;
  EXPECT_TRUE(Diff(request, {kPairs + "/" + from}, {kPairs + "/" + to}, &report, &error)) << error;
  return report;
}

TEST(InstalledLayout, APathIsItsPlaceBelowTheFirstInstallationDirectory) {
  EXPECT_EQ(PlaceBelowPrefix("usr/lib/x86_64-linux-gnu/cmake/hip/hip-config.cmake"),
            "lib/cmake/hip/hip-config.cmake");
  EXPECT_EQ(PlaceBelowPrefix("opt/rocm-6.2/lib/cmake/hip/hip-config.cmake"),
            "lib/cmake/hip/hip-config.cmake");
  EXPECT_EQ(PlaceBelowPrefix("lib64/cmake/hip/hip-config.cmake"), "lib/cmake/hip/hip-config.cmake");
  EXPECT_EQ(PlaceBelowPrefix("stage/usr/share/doc/x/README"), "share/doc/x/README");
  EXPECT_EQ(PlaceBelowPrefix("usr/lib/arm-linux-gnueabihf/libx.so.1"), "lib/libx.so.1");
  // lib32 holds another ABI's libraries; a directory that only looks like a tuple stays.
  EXPECT_EQ(PlaceBelowPrefix("usr/lib32/libx.so.1"), "lib32/libx.so.1");
  EXPECT_EQ(PlaceBelowPrefix("usr/lib/rocm-smi/x"), "lib/rocm-smi/x");
  // The file's own name is no directory of the layout; a path without one stays as it is.
  EXPECT_EQ(PlaceBelowPrefix("lib"), "lib");
  EXPECT_EQ(PlaceBelowPrefix("x86_64-linux-gnu/libx.so.1"), "x86_64-linux-gnu/libx.so.1");
  EXPECT_EQ(PlaceBelowPrefix("usr/lib/x86_64-linux-gnu"), "lib/x86_64-linux-gnu");
}

TEST(InstalledLayout, APathSplitsIntoItsPrefixAndItsPlace) {
  const InstalledPlace opt = SplitAtPrefix("opt/rocm-6.2/lib64/libx.so.1");
  EXPECT_EQ(opt.prefix, "opt/rocm-6.2");
  EXPECT_EQ(opt.place, "lib/libx.so.1");
  const InstalledPlace usr = SplitAtPrefix("usr/lib/x86_64-linux-gnu/libx.so.1");
  EXPECT_EQ(usr.prefix, "usr");
  EXPECT_EQ(usr.place, "lib/libx.so.1");
  // Given at its usr/: no prefix. No installation directory: all place, no prefix.
  EXPECT_EQ(SplitAtPrefix("bin/prog").prefix, "");
  EXPECT_EQ(SplitAtPrefix("x86_64-linux-gnu/libx.so.1").prefix, "");
  EXPECT_EQ(SplitAtPrefix("x86_64-linux-gnu/libx.so.1").place, "x86_64-linux-gnu/libx.so.1");
}

TEST(InstalledLayout, AKeyNamesItsPathsBelowThePrefixAndPackageMembersAsInstalled) {
  EXPECT_EQ(KeyBelowPrefix("unresolved-library|usr/lib/x86_64-linux-gnu/liblay.so.1|needed=libmissing.so.1"),
            "unresolved-library|lib/liblay.so.1|needed=libmissing.so.1");
  EXPECT_EQ(KeyBelowPrefix("unresolved-library|librocm1_6.2_amd64.deb:/usr/lib/x86_64-linux-gnu/libr.so.1|"
                           "needed=libz.so.1"),
            "unresolved-library|lib/libr.so.1|needed=libz.so.1");
  // A relative path among the values moves with the prefix; an absolute one is what a file
  // names (an RPATH entry) and stays.
  EXPECT_EQ(KeyBelowPrefix("x|opt/rocm-6.0/bin/p|dir=opt/rocm-6.0/lib/x|rpath=/opt/rocm-6.0/lib"),
            "x|bin/p|dir=lib/x|rpath=/opt/rocm-6.0/lib");
}

// OLD a staging tree, NEW an /opt/rocm-6.2 install: the config's dropped target is found,
// the tensile directory's lost processor too, and the files that did not change (the
// kernels directory, liblay.so.1's unresolved dependency on both sides) give nothing.
TEST(DiffLayout, FilesMovedToAnotherPrefixPairWithTheirOldPlace) {
  const Report r = DiffPaths("layout/old", "layout/new");
  const auto removed = FindingsOf(r, "cmake-interface-removed");
  ASSERT_EQ(removed.size(), 1u);
  EXPECT_EQ(removed[0]->file, "opt/rocm-6.2/lib/cmake/Lay/LayConfig.cmake");
  EXPECT_EQ(removed[0]->fields["removed_targets"], Json::array({"Lay::extra"}));
  const auto lost = FindingsOf(r, "processors-lost");
  ASSERT_EQ(lost.size(), 1u);
  EXPECT_EQ(lost[0]->file, "opt/rocm-6.2/lib/lay/tensile");
  EXPECT_EQ(lost[0]->fields["scope"], "directory");
  EXPECT_EQ(lost[0]->fields["lost"], Json::array({"gfx90a"}));
  std::vector<std::string> checks;
  for (const Finding& f : r.findings) checks.push_back(f.check);
  EXPECT_THAT(checks, ::testing::UnorderedElementsAre("cmake-interface-removed", "processors-lost"));
}

// The same trees given at their usr/ and at their prefix: the same findings.
TEST(DiffLayout, ATreeGivenAtItsUsrDirectoryPairsAsGivenAtItsRoot) {
  const Report at_root = DiffPaths("layout/old", "layout/new");
  const Report at_usr = DiffPaths("layout/old/usr", "layout/new/opt/rocm-6.2");
  ASSERT_EQ(at_usr.findings.size(), at_root.findings.size());
  for (size_t i = 0; i < at_usr.findings.size(); ++i) {
    EXPECT_EQ(at_usr.findings[i].check, at_root.findings[i].check);
    EXPECT_EQ(at_usr.findings[i].fields, at_root.findings[i].fields);
  }
  // Backwards, OLD's defect of liblay.so.1 is NEW's at its other prefix: not fixed.
  for (const Finding& f : DiffPaths("layout/new", "layout/old").findings)
    EXPECT_NE(f.check, "fixed-finding") << f.message;
}

// The rule lists the first 100 targets by name (byte order) and counts the rest: Many's
// 150 targets, defined t150 down to t1; Edge's exactly 100, none left out.
TEST(DiffCap, ADroppedDependencyListsItsFirstHundredTargetsByNameAndCountsTheRest) {
  const Report r = DiffPaths("cap/old", "cap/new");
  const auto found = FindingsOf(r, "cmake-dependency-dropped");
  ASSERT_EQ(found.size(), 2u);
  const Finding* many = nullptr;
  const Finding* edge = nullptr;
  for (const Finding* f : found) (f->fields["dependency"] == "Many" ? many : edge) = f;
  ASSERT_NE(many, nullptr);
  ASSERT_NE(edge, nullptr);
  std::vector<std::string> names;
  for (int n = 150; n >= 1; --n) names.push_back("Many::t" + std::to_string(n));
  std::sort(names.begin(), names.end());
  EXPECT_EQ(many->fields["count"], 150);
  EXPECT_EQ(many->fields["targets"].get<std::vector<std::string>>(),
            std::vector<std::string>(names.begin(), names.begin() + 100));
  EXPECT_EQ(many->fields["left_out"], 50);
  EXPECT_EQ(many->fields["targets"][0], "Many::t1");
  EXPECT_EQ(many->fields["targets"][2], "Many::t100");
  EXPECT_EQ(edge->fields["dependency"], "Edge");
  EXPECT_EQ(edge->fields["count"], 100);
  EXPECT_EQ(edge->fields["targets"].size(), 100u);
  EXPECT_EQ(edge->fields["left_out"], 0);
}

}  // namespace
}  // namespace rocm_audit::testing
