#include "audit/cmake/kept_variables.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace rocm_audit {
namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;
using Model = std::map<std::string, CMakeValue>;

std::string Shown(const CMakeValue& v) {
  return (v.known ? v.text : "<unknown " + v.why + ">") + (v.maybe_unset ? " (maybe unset)" : "");
}

Pairs Visible(const VariableMap& m) {
  Pairs out;
  m.ForEach([&](const std::string& name, const CMakeValue& value) { out.emplace_back(name, Shown(value)); });
  std::sort(out.begin(), out.end());
  return out;
}

Pairs Visible(const Model& m) {
  Pairs out;
  for (const auto& [name, value] : m) out.emplace_back(name, Shown(value));
  return out;
}

CMakeVariables::Map Numbered(int n, const std::string& prefix) {
  CMakeVariables::Map m;
  for (int i = 0; i < n; ++i) m.emplace(prefix + std::to_string(1000 + i), "v" + std::to_string(i));
  return m;
}

VariableMap Scope(const CMakeVariables::Map& m) {
  VariableMap s;
  for (const auto& [name, value] : m) s.Set(name, value);
  return s;
}

// What find_package() leaves: the found package's values, but for the names the call keeps,
// and the caller's values of every name the package does not set.
Model Adopted(Model caller, const Model& found, const CallerKeptVariables& keep) {
  for (const auto& [name, value] : found)
    if (!keep.Keeps(name)) caller[name] = value;
  return caller;
}

TEST(KeptVariables, AMapKeptReadsAsTheMap) {
  CMakeVariables::Map m = Numbered(100, "Qt6_");
  m["Qt6_1005"] = CMakeValue::Unknown("the consumer's compiler");
  m["Qt6_1006"].maybe_unset = true;
  const CMakeVariables kept(m);
  EXPECT_EQ(kept.Find("Qt6_1007")->text, "v7");
  EXPECT_FALSE(kept.Find("Qt6_1005")->known);
  EXPECT_TRUE(kept.Find("Qt6_1006")->maybe_unset);
  EXPECT_EQ(kept.Find("nothing"), nullptr);
  size_t n = 0;
  kept.ForEach([&](const std::string&, const CMakeValue&) { ++n; });
  EXPECT_EQ(n, m.size());
}

TEST(KeptVariables, NothingKeptIsFalse) {
  EXPECT_FALSE(CMakeVariables());
  EXPECT_TRUE(CMakeVariables(CMakeVariables::Map{}));
  EXPECT_EQ(CMakeVariables().Find("x"), nullptr);
  EXPECT_EQ(CMakeVariables().map(), nullptr);
}

// find_package() of a package whose files set ~1500 variables (Qt6Core's): the caller gets
// them, keeps what the call keeps and what the package does not set, and shares the package's
// map instead of copying it.
TEST(KeptVariables, AdoptingAFoundMapKeepsWhatTheCallKeeps) {
  CMakeVariables::Map found_map = Numbered(1500, "Qt6_");
  found_map["CMAKE_CURRENT_LIST_FILE"] = "/usr/lib/cmake/Qt6Core/Qt6CoreConfig.cmake";
  found_map["Qt6Core_FIND_COMPONENTS"] = "theirs";
  found_map["PACKAGE_PREFIX_DIR"] = "/usr";
  found_map["CMAKE_MATCH_1"] = "x";
  found_map["shared"] = CMakeValue::Unknown("the consumer's compiler");
  found_map["Qt6_1001"].maybe_unset = true;
  const CMakeVariables found(found_map);

  CMakeVariables::Map caller_map;
  caller_map["CMAKE_CURRENT_LIST_FILE"] = "/usr/lib/cmake/KF6/KF6Config.cmake";
  caller_map["Qt6Core_FIND_COMPONENTS"] = "mine";
  caller_map["PACKAGE_PREFIX_DIR"] = "/opt";
  caller_map["shared"] = "mine";
  caller_map["own"] = "mine";
  VariableMap caller = Scope(caller_map);
  caller.Erase("own");
  caller.Set("own", {"again"});

  const CallerKeptVariables keep{"Qt6Core_FIND_", false, true};
  const size_t before = VariableMap::EntriesCopied();
  caller.Adopt(*found.map(), keep);
  EXPECT_LT(VariableMap::EntriesCopied() - before, 50u);

  Model expected_caller(caller_map.begin(), caller_map.end());
  expected_caller["own"] = "again";
  EXPECT_EQ(Visible(caller),
            Visible(Adopted(expected_caller, Model(found_map.begin(), found_map.end()), keep)));
  EXPECT_EQ(caller.Find("CMAKE_CURRENT_LIST_FILE")->text, "/usr/lib/cmake/KF6/KF6Config.cmake");
  EXPECT_EQ(caller.Find("Qt6Core_FIND_COMPONENTS")->text, "mine");
  EXPECT_EQ(caller.Find("PACKAGE_PREFIX_DIR")->text, "/opt");
  EXPECT_EQ(caller.Find("CMAKE_MATCH_1"), nullptr);  // the package's, in passing
  EXPECT_FALSE(caller.Find("shared")->known);
  EXPECT_TRUE(caller.Find("Qt6_1001")->maybe_unset);
  EXPECT_EQ(caller.Find("own")->text, "again");
  // The package's map is unchanged by what the caller does after.
  caller.Set("Qt6_1002", {"changed"});
  caller.Erase("Qt6_1003");
  EXPECT_EQ(found.Find("Qt6_1002")->text, "v2");
  EXPECT_EQ(found.Find("Qt6_1003")->text, "v3");
  // Without prefix_dir, the package's PACKAGE_PREFIX_DIR replaces the caller's.
  VariableMap other = Scope(caller_map);
  other.Adopt(*found.map(), {"Qt6Core_FIND_", false, false});
  EXPECT_EQ(other.Find("PACKAGE_PREFIX_DIR")->text, "/usr");
}

// A chain as Qt's modules make it: Qt6Gui's evaluation adopted Qt6Core's map and set its own
// on top; a caller that adopted Qt6Core's first adopts Qt6Gui's for what the two changed.
TEST(KeptVariables, AdoptingAMapThatSharesTheCallersCopiesWhatChanged) {
  const CMakeVariables core(Numbered(2000, "Qt6_"));
  VariableMap gui;
  gui.Adopt(*core.map(), {"Qt6Core_FIND_", false, false});
  gui.Set("Qt6Gui_FOUND", {"1"});
  gui.Set("Qt6_1010", {"gui's"});
  gui.Erase("Qt6_1011");
  const CMakeVariables gui_kept(std::move(gui));

  VariableMap caller = Scope({{"mine", "1"}, {"Qt6_1012", "mine"}});
  caller.Adopt(*core.map(), {"Qt6Core_FIND_", false, false});
  caller.Set("after_core", {"1"});
  caller.Set("Qt6_1013", {"mine"});
  const size_t before = VariableMap::EntriesCopied();
  caller.Adopt(*gui_kept.map(), {"Qt6Gui_FIND_", false, false});
  EXPECT_LT(VariableMap::EntriesCopied() - before, 20u);
  EXPECT_EQ(caller.Find("Qt6Gui_FOUND")->text, "1");
  EXPECT_EQ(caller.Find("Qt6_1010")->text, "gui's");
  EXPECT_EQ(caller.Find("Qt6_1011")->text, "v11");  // unset by Qt6Gui's files: the caller's stays
  EXPECT_EQ(caller.Find("Qt6_1012")->text, "v12");  // Qt6Core's, adopted before
  EXPECT_EQ(caller.Find("Qt6_1013")->text, "v13");  // set by both packages: theirs again
  EXPECT_EQ(caller.Find("after_core")->text, "1");
  EXPECT_EQ(caller.Find("mine")->text, "1");
}

// Adopt() against the plain rule, on scopes built by random sets, unsets, copies, compactions
// and adoptions of frozen maps, each adoption with what some find_package() keeps.
TEST(KeptVariables, AdoptingMatchesSettingEachVariable) {
  std::mt19937 random(20261201);
  const std::vector<std::string> names = {"A",
                                          "B",
                                          "C",
                                          "D",
                                          "E",
                                          "F",
                                          "G",
                                          "H",
                                          "CMAKE_CURRENT_LIST_DIR",
                                          "Dep_FIND_VERSION",
                                          "Other_FIND_QUIETLY",
                                          "ARGN",
                                          "CMAKE_MODULE_PATH",
                                          "PACKAGE_PREFIX_DIR",
                                          "CMAKE_MATCH_0"};
  const std::vector<CallerKeptVariables> keeps = {{"Dep_FIND_", false, false},
                                                  {"Other_FIND_", true, true},
                                                  {"Dep_FIND_", true, false},
                                                  {"", false, true}};
  auto value = [&]() {
    CMakeValue v = std::to_string(random() % 4);
    if (random() % 5 == 0) v = CMakeValue::Unknown("why " + std::to_string(random() % 2));
    v.maybe_unset = random() % 6 == 0;
    return v;
  };
  struct Tracked {
    VariableMap map;
    Model model;
  };
  std::vector<std::pair<CMakeVariables, Model>> frozen;
  for (int round = 0; round < 300; ++round) {
    Tracked t;
    const int steps = 1 + random() % 30;
    for (int s = 0; s < steps; ++s) {
      const std::string& name = names[random() % names.size()];
      switch (random() % 7) {
        case 0:
        case 1: {
          CMakeValue v = value();
          t.map.Set(name, v);
          t.model[name] = v;
          break;
        }
        case 2:
          t.map.Erase(name);
          t.model.erase(name);
          break;
        case 3: {  // a copy, as a function call or an undecided if() makes, then compacted
          VariableMap copy = t.map;
          t.map.Compact();
          if (random() % 2) t.map = copy;
          break;
        }
        default:
          if (frozen.empty()) break;
          const auto& [found, found_model] = frozen[random() % frozen.size()];
          const CallerKeptVariables& keep = keeps[random() % keeps.size()];
          t.map.Adopt(*found.map(), keep);
          t.model = Adopted(t.model, found_model, keep);
      }
      ASSERT_EQ(Visible(t.map), Visible(t.model)) << "round " << round << " step " << s;
      ASSERT_EQ(t.map.CopyCost(), Scope({t.model.begin(), t.model.end()}).CopyCost()) << "round " << round;
    }
    frozen.emplace_back(CMakeVariables(std::move(t.map)), t.model);
    ASSERT_EQ(Visible(*frozen.back().first.map()), Visible(t.model)) << "round " << round;
  }
}

}  // namespace
}  // namespace rocm_audit
