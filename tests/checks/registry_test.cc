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
      EXPECT_EQ(FindRule(r.id), FindRule(r.id));
      ASSERT_NE(FindRule(r.id), nullptr) << r.id;
      EXPECT_EQ(FindRule(r.id)->severity, r.severity) << r.id;
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
  for (const char* id :
       {"undefined-symbol", "missing-version", "unresolved-library", "rpath-build-dir", "rpath-missing-dir",
        "rpath-absolute-outside", "rpath-relative", "mixed-soname", "dangling-symlink", "symlink-loop",
        "malformed-file", "unreadable-file", "malformed-bundle", "bundle-id-mismatch", "missing-arch",
        "ccob-isa-compat", "stack-arch-gap", "missing-arch-data"})
    EXPECT_NE(FindRule(id), nullptr) << id;
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
