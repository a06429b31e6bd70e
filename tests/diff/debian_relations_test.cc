// Debian versions and relations (diff/debian_relations.h) against dpkg itself: every pair
// orders as `dpkg --compare-versions` orders it, and relations are met as deb-control(5)
// and Policy 7.5 say.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "diff/debian_relations.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

// Sorted by our order, each version is below or equal to the next as dpkg says: then dpkg's
// order of the whole list is ours (one shell, a dpkg per neighbouring pair: well under a second).
TEST(DebianRelations, VersionsOrderAsDpkgOrdersThem) {
  std::vector<std::string> versions = {"1.0",      "1.0-0",   "1.0-1",   "1.0~rc1", "1.0~~",         "1.0a",
                                       "1.0+b1",   "1.00",    "1.0.1",   "1:0.1",   "0:1.0",         "2.0-1",
                                       "2.0-1+b1", "6.0.2-1", "5.7.1-1", "1.0-1.1", "1.0-1~bpo12+1", "10",
                                       "9",        "a",       "1.0-a",   "1.0-1b",  "1.0-1~"};
  std::sort(versions.begin(), versions.end(),
            [](const std::string& a, const std::string& b) { return CompareDebianVersions(a, b) < 0; });
  std::string script, expected;
  for (size_t i = 0; i + 1 < versions.size(); ++i) {
    const std::string& a = versions[i];
    const std::string& b = versions[i + 1];
    const int ours = CompareDebianVersions(a, b);
    ASSERT_LE(ours, 0) << a << " vs " << b;
    EXPECT_EQ(CompareDebianVersions(b, a) == 0, ours == 0) << a << " vs " << b;
    script += "dpkg --compare-versions '" + a + "' " + (ours < 0 ? "lt" : "eq") + " '" + b + "' && echo " +
              a + " || echo 'not " + a + "'\n";
    expected += a + "\n";
  }
  TempDir t;
  WriteAll(t / "compare.sh", script);
  std::string out;
  ASSERT_EQ(RunCommand("sh " + t / "compare.sh", &out), 0);
  EXPECT_EQ(out, expected);
}

TEST(DebianRelations, ARelationIsMetByNameVersionAndVersionedProvides) {
  EXPECT_TRUE(RelationSatisfiedBy("libt1", "libt1", "1.0-1", {}));
  EXPECT_TRUE(RelationSatisfiedBy("libt1:amd64 (<< 2.0)", "libt1", "1.0-1", {}));
  EXPECT_FALSE(RelationSatisfiedBy("libt1 (<< 1.0)", "libt1", "1.0-1", {}));
  EXPECT_TRUE(RelationSatisfiedBy("libt1 (<= 1.0-1)", "libt1", "1.0-1", {}));
  EXPECT_TRUE(RelationSatisfiedBy("libt1 (= 1.0-1)", "libt1", "1.0-1", {}));
  EXPECT_TRUE(RelationSatisfiedBy("libt1 (>> 1.0)", "libt1", "1.0-1", {}));
  EXPECT_FALSE(RelationSatisfiedBy("libt1 (>= 2)", "libt1", "1.0-1", {}));
  EXPECT_FALSE(RelationSatisfiedBy("libt1 (<< 2.0)", "libt1", "", {}));  // no version: unknown
  EXPECT_FALSE(RelationSatisfiedBy("libt", "libt1", "1.0-1", {}));
  // Provides: an unversioned relation by any; a versioned one only by "(= v)" (Policy 7.5).
  EXPECT_TRUE(RelationSatisfiedBy("libt-abi", "libt1", "1.0-1", {"libt-abi"}));
  EXPECT_FALSE(RelationSatisfiedBy("libt-abi (<< 2)", "libt1", "1.0-1", {"libt-abi"}));
  EXPECT_TRUE(RelationSatisfiedBy("libt-abi (<< 2)", "libt1", "1.0-1", {"libt-abi (= 1)"}));
  EXPECT_FALSE(RelationSatisfiedBy("libt-abi (<< 1)", "libt1", "1.0-1", {"libt-abi (= 1)"}));
  EXPECT_FALSE(RelationSatisfiedBy("", "libt1", "1.0-1", {}));
  EXPECT_FALSE(RelationSatisfiedBy("libt1 (", "libt2", "1.0-1", {}));
}

}  // namespace
}  // namespace rocm_audit::testing
