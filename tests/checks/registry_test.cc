// The registry: every check has rules, rule IDs are unique, stable and documented, and
// the run order groups the stages.
#include "checks/registry.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>

namespace rocm_audit {
namespace {

TEST(Registry, EveryCheckHasRulesAndEveryRuleIsFoundById) {
  std::set<std::string_view> ids;
  for (const Check* c : AllChecks()) {
    EXPECT_FALSE(c->name.empty());
    EXPECT_FALSE(c->rules.empty()) << c->name;
    for (const Rule& r : c->rules) {
      ids.insert(r.id);
      // FindRule returns this very rule, not one of the same name elsewhere.
      ASSERT_NE(FindRule(r.id), nullptr) << r.id;
      EXPECT_EQ(FindRule(r.id), &r) << r.id;
    }
  }
  EXPECT_EQ(ids.size(), AllRules().size());
  EXPECT_EQ(FindRule("no-such-check"), nullptr);
}

TEST(Registry, RuleIdsAreKebabCaseWithATitleAndAFix) {
  for (const Rule* r : AllRules()) {
    EXPECT_TRUE(std::regex_match(std::string(r->id), std::regex("[a-z]+(-[a-z]+)*"))) << r->id;
    EXPECT_FALSE(r->title.empty()) << r->id;
    EXPECT_FALSE(r->fix.empty()) << r->id;
  }
}

// The IDs are the JSON contract's `check` values and SARIF ruleIds: renaming one breaks
// every consumer, so the set only grows.
TEST(Registry, KnownIdsStay) {
  const std::set<std::string_view> pinned = {"undefined-symbol",
                                             "missing-version",
                                             "unresolved-library",
                                             "rpath-build-dir",
                                             "rpath-missing-dir",
                                             "rpath-absolute-outside",
                                             "rpath-relative",
                                             "mixed-soname",
                                             "dangling-symlink",
                                             "symlink-loop",
                                             "malformed-file",
                                             "unreadable-file",
                                             "malformed-bundle",
                                             "bundle-id-mismatch",
                                             "unknown-gpu-target",
                                             "missing-arch",
                                             "ccob-isa-compat",
                                             "stack-arch-gap",
                                             "missing-arch-data",
                                             "link-outside-tree",
                                             "special-file",
                                             "cmake-missing-file",
                                             "cmake-config-error",
                                             "cmake-missing-dependency",
                                             "cmake-absolute-path",
                                             "cmake-not-evaluated",
                                             "package-member-refused",
                                             "package-limit",
                                             "cmake-dependency-version",
                                             "cmake-missing-target",
                                             "cmake-no-location",
                                             "cmake-missing-library"};
  // Rules added since, pinned as they land.
  const std::set<std::string_view> added = {"upload-not-audited", "missing-depends", "cmake-consumer-scope"};
  for (std::string_view id : pinned) EXPECT_NE(FindRule(id), nullptr) << id;
  for (std::string_view id : added) EXPECT_NE(FindRule(id), nullptr) << id;
  // Every rule is pinned here: a new rule is added to a list, and none is ever taken out.
  for (const Rule* r : AllRules())
    EXPECT_TRUE(pinned.count(r->id) || added.count(r->id)) << r->id << " is not pinned";
}

TEST(Registry, StagesRunInOrder) {
  int last = 0;
  for (const Check* c : AllChecks()) {
    int stage = static_cast<int>(c->stage());
    EXPECT_GE(stage, last) << c->name;
    last = stage;
  }
}

}  // namespace
}  // namespace rocm_audit
