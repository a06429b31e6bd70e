// What evaluating the CMake packages of a tree costs grows linearly with the packages: each
// package is evaluated again only once its dependencies are settled, and each audited
// directory, a prefix of the consumer's CMAKE_PREFIX_PATH, is searched for another package's
// name only when its listing may hold it. Counted in evaluations and searches (CMakeRunStats),
// never in time, so that a loaded machine cannot fail or pass it.
#include "audit/inspect/cmake_packages.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "audit/cmake/installed_files.h"
#include "audit/cmake/package_config.h"
#include "audit/fs/walk.h"
#include "tests/support/scratch_dir_test.h"

namespace rocm_audit {
namespace {

class CMakeEvaluationCost : public testing::ScratchDirTest {
 protected:
  // "PkgA", "PkgB", ...: no name is the start of another (find_package() takes every
  // directory whose name starts with the package's).
  static std::string Name(size_t i) { return std::string("Pkg") + static_cast<char>('A' + i); }

  // A file every package of the chain includes, as Qt6's configs include Qt6's helpers.
  std::string Shared() { return Write("shared/helpers.cmake", "set(helped 1)\n"); }

  // A chain of `k` packages, each in its own directory, each finding the one before it and
  // reading its variable: what a package reads changes until every one below it is settled
  // (as Qt6Gui reads Qt6Core, which reads Qt6). The directories, as audited.
  std::vector<std::string> Chain(size_t k) {
    std::vector<std::string> dirs;
    for (size_t i = 0; i < k; ++i) {
      const std::string n = Name(i), dir = "chain" + std::to_string(k) + "/" + n;
      std::string body;
      if (i == 0) {
        body = "set(" + n + "_LEVEL \"+\")\n";
      } else {
        const std::string below = Name(i - 1);
        body = "include(CMakeFindDependencyMacro)\nfind_dependency(" + below + ")\nset(" + n + "_LEVEL \"${" +
               below + "_LEVEL}+\")\nif(TARGET " + below + "::lib)\nendif()\n";
      }
      body += "add_library(" + n + "::lib INTERFACE IMPORTED)\n";
      body += "include(" + Shared() + ")\n";
      Write(dir + "/" + n + "Config.cmake", body);
      Write(dir + "/" + n + "ConfigVersion.cmake",
            "set(PACKAGE_VERSION 1.0)\nset(PACKAGE_VERSION_COMPATIBLE TRUE)\n");
      dirs.push_back((dir_ / dir).string());
    }
    return dirs;
  }

  // Evaluates the chain's packages together; each one's <Name>_LEVEL is checked against
  // what CMake leaves (one '+' per level), so that cheaper is never wrong.
  CMakeRunStats Evaluate(size_t k) {
    RootedFs fs;
    WalkResult walk = WalkInputs(Chain(k), fs);
    CMakeRunStats stats;
    std::vector<AuditedPackage> packages = EvaluateCMakePackages(walk.files, fs, {{}, false}, 2, &stats);
    EXPECT_EQ(packages.size(), k);
    for (const AuditedPackage& p : packages) {
      const std::string& name = p.package.name;
      const size_t level = static_cast<size_t>(name[3] - 'A') + 1;
      auto it = p.package.evaluation.variables.find(name + "_LEVEL");
      EXPECT_TRUE(it != p.package.evaluation.variables.end() && it->second.text == std::string(level, '+'))
          << name;
    }
    return stats;
  }
};

// Before, the fixed point evaluated every package whose inputs changed in every round: the
// K-th level was evaluated K times (7 packages: 28 evaluations, 14: 105), and every config's
// name was searched for in every audited directory (28 and 105 searches).
TEST_F(CMakeEvaluationCost, AChainTwiceAsLongCostsTwiceAsMuch) {
  const CMakeRunStats half = Evaluate(7), whole = Evaluate(14);
  // Each package once, and once again with its dependencies settled.
  EXPECT_LE(whole.evaluations, 2 * 14u);
  EXPECT_LE(whole.evaluations * 10, half.evaluations * 25) << half.evaluations << " -> " << whole.evaluations;
  // Each config found once where it is; no other directory is read for its name.
  EXPECT_LE(whole.config_searches, 14u);
  EXPECT_LE(whole.config_searches * 10, half.config_searches * 25)
      << half.config_searches << " -> " << whole.config_searches;
  EXPECT_EQ(whole.rounds, 13u);  // one level a round: the fixed point is reached
}

// Each list file is parsed once per run, however many evaluations run it: before, each
// evaluation parsed its config and every file it included (14 packages evaluated 27 times
// with a helper and a version file each: 54 parses of the configs and helpers alone).
TEST_F(CMakeEvaluationCost, EachListFileIsParsedOncePerRun) {
  const CMakeRunStats whole = Evaluate(14);
  EXPECT_GT(whole.evaluations, 14u);
  EXPECT_LE(whole.parses, 2 * 14u + 1) << whole.evaluations << " evaluations";  // configs, version files
}

// Each package's config runs once per evaluation of it, and its version file once a run:
// before, an evaluation in the fixed point ran its config twice (once more for its own
// targets, which it already knew) and every evaluation read the version file twice (for the
// passes and for the package assembled of them): 14 packages, 8 list files each.
TEST_F(CMakeEvaluationCost, EachEvaluationRunsTheConfigOnceAndTheVersionFileOnce) {
  const CMakeRunStats half = Evaluate(7), whole = Evaluate(14);
  // The chain's first package asks for no target: its config once, its version file once.
  // Each other: its config twice at first (the second time knowing its own targets), once
  // more with its dependencies settled, its version file once.
  EXPECT_EQ(whole.list_file_evaluations, 2 + 13 * 4u) << whole.evaluations << " evaluations";
  EXPECT_EQ(whole.list_file_evaluations - half.list_file_evaluations, 7 * 4u);
}

// A package some pass of which asked for its dependencies' targets keeps its passes for the
// fixed point. A pass that asked is evaluated again there, so none of what it found is kept
// beside the package's copy of it; one that did not is taken again as it is, without the
// variables no one reads again (the package's are the plain pass's). Before, every pass was
// kept whole beside its copy in the package: the peak memory of a set of configs.
TEST_F(CMakeEvaluationCost, KeptPassesHoldOnlyWhatIsTakenAgain) {
  const std::string config = Write("keep/Foo/FooConfig.cmake",
                                   "set(Foo_COMPONENTS extra)\n"
                                   "if(NOT Foo_FIND_COMPONENTS)\n"
                                   "  include(CMakeFindDependencyMacro)\n"
                                   "  find_dependency(Dep)\n"
                                   "  if(TARGET Dep::lib)\n"
                                   "  endif()\n"
                                   "endif()\n"
                                   "add_library(Foo::core INTERFACE IMPORTED)\n"
                                   "if(\"extra\" IN_LIST Foo_FIND_COMPONENTS)\n"
                                   "  add_library(Foo::extra INTERFACE IMPORTED)\n"
                                   "endif()\n");
  RootedFs fs;
  const InstalledFiles files(fs, {});
  const CMakePackage p = EvaluatePackage("Foo", config, files);
  ASSERT_TRUE(p.asked_dependency_targets);
  ASSERT_EQ(p.passes.size(), 2u);
  // The package: both passes' targets, the plain pass's variables.
  EXPECT_EQ(p.evaluation.targets.size(), 2u);
  EXPECT_EQ(p.evaluation.variables.count("Foo_COMPONENTS"), 1u);
  EXPECT_EQ(p.evaluation.dependencies.size(), 1u);
  // The plain pass asked: only its component is kept.
  EXPECT_TRUE(p.passes[0].asked_dependency_targets);
  EXPECT_TRUE(p.passes[0].evaluation.targets.empty());
  EXPECT_TRUE(p.passes[0].evaluation.variables.empty());
  EXPECT_TRUE(p.passes[0].evaluation.dependencies.empty());
  // The component's did not: kept to be taken again, its variables not.
  EXPECT_EQ(p.passes[1].component, "extra");
  EXPECT_FALSE(p.passes[1].asked_dependency_targets);
  EXPECT_EQ(p.passes[1].evaluation.targets.size(), 2u);
  EXPECT_TRUE(p.passes[1].evaluation.variables.empty());
}

}  // namespace
}  // namespace rocm_audit
