#include "audit/cmake/kept_variables.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace rocm_audit {
namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;

Pairs Visible(const CMakeVariables& v) {
  Pairs out;
  v.ForEach([&](const std::string& name, const CMakeValue& value) {
    out.emplace_back(name, value.known ? value.text : "<unknown>");
  });
  return out;
}

CMakeVariables::Map Numbered(int n, const std::string& prefix) {
  CMakeVariables::Map m;
  for (int i = 0; i < n; ++i) m.emplace(prefix + std::to_string(1000 + i), "v" + std::to_string(i));
  return m;
}

// A map kept over the one it grew from reads as the whole map: values set, set differently,
// unset, unknown and maybe-unset, in byte order, through several layers.
TEST(KeptVariables, AMapKeptOverItsBaseReadsAsTheWholeMap) {
  CMakeVariables::Map base_map = Numbered(100, "Qt6_");
  const CMakeVariables base(base_map);
  CMakeVariables::Map mine = base_map;
  mine.erase("Qt6_1003");
  mine["Qt6_1004"] = "changed";
  mine["Qt6_1005"] = CMakeValue::Unknown("the consumer's compiler");
  mine["Qt6_1006"].maybe_unset = true;
  mine["A_own"] = "own";
  mine["Z_own"] = "last";
  const CMakeVariables kept(mine, base);
  EXPECT_EQ(kept.depth(), 2u);  // a layer over the base, not a copy
  EXPECT_EQ(kept.size(), mine.size());
  Pairs expected;
  for (const auto& [name, value] : mine) expected.emplace_back(name, value.known ? value.text : "<unknown>");
  EXPECT_EQ(Visible(kept), expected);
  EXPECT_EQ(kept.Find("Qt6_1003"), nullptr);
  ASSERT_NE(kept.Find("Qt6_1004"), nullptr);
  EXPECT_EQ(kept.Find("Qt6_1004")->text, "changed");
  EXPECT_FALSE(kept.Find("Qt6_1005")->known);
  EXPECT_TRUE(kept.Find("Qt6_1006")->maybe_unset);
  EXPECT_EQ(kept.Find("Qt6_1007")->text, "v7");
  EXPECT_EQ(kept.Find("nothing"), nullptr);
  // The base is unchanged by what was kept over it.
  EXPECT_EQ(base.Find("Qt6_1003")->text, "v3");
  EXPECT_EQ(base.size(), 100u);

  // A third layer sets again what the second unset, and unsets what the base set.
  CMakeVariables::Map third = mine;
  third["Qt6_1003"] = "back";
  third.erase("Qt6_1010");
  const CMakeVariables top(third, kept);
  EXPECT_EQ(top.depth(), 3u);
  expected.clear();
  for (const auto& [name, value] : third) expected.emplace_back(name, value.known ? value.text : "<unknown>");
  EXPECT_EQ(Visible(top), expected);
  EXPECT_EQ(top.Find("Qt6_1003")->text, "back");
  EXPECT_EQ(top.Find("Qt6_1010"), nullptr);
  EXPECT_EQ(kept.Find("Qt6_1010")->text, "v10");
}

// A map that shares little with the base is kept whole, and a chain of layers stops growing
// at its bound: a lookup never reads more than a few maps.
TEST(KeptVariables, LittleInCommonOrTooDeepIsKeptWhole) {
  const CMakeVariables base(Numbered(100, "A_"));
  CMakeVariables::Map other = Numbered(100, "B_");
  other.merge(Numbered(10, "A_"));
  EXPECT_EQ(CMakeVariables(other, base).depth(), 1u);
  EXPECT_EQ(CMakeVariables(other, CMakeVariables()).depth(), 1u);

  CMakeVariables chain(Numbered(100, "A_"));
  for (int i = 0; i < 20; ++i) {
    CMakeVariables::Map next = Numbered(100, "A_");
    next["step"] = std::to_string(i);
    chain = CMakeVariables(std::move(next), chain);
    EXPECT_LE(chain.depth(), 8u);
    EXPECT_EQ(chain.Find("step")->text, std::to_string(i));
    EXPECT_EQ(chain.size(), 101u);
  }
}

TEST(KeptVariables, NothingKeptIsFalseAndEmpty) {
  EXPECT_FALSE(CMakeVariables());
  EXPECT_TRUE(CMakeVariables(CMakeVariables::Map{}));
  EXPECT_TRUE(CMakeVariables().empty());
  EXPECT_EQ(CMakeVariables().Find("x"), nullptr);
}

}  // namespace
}  // namespace rocm_audit
