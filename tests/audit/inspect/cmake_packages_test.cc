// What evaluating the CMake packages of a tree costs grows linearly with the packages: each
// package is evaluated once, its dependencies as it finds them, and each audited directory, a prefix of the
// consumer's CMAKE_PREFIX_PATH, is searched for another package's name only when its listing may hold it.
// Counted in evaluations and searches (CMakeRunStats), never in time, so that a loaded machine cannot fail or
// pass it.
#include "audit/inspect/cmake_packages.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "audit/cmake/installed_files.h"
#include "audit/cmake/package_config.h"
#include "audit/fs/walk.h"
#include "audit/support/deep_stack.h"
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
    std::vector<AuditedPackage> packages = EvaluateCMakePackages(walk.files, fs, {{}, false}, &stats);
    EXPECT_EQ(packages.size(), k);
    for (const AuditedPackage& p : packages) {
      const std::string& name = p.package.name;
      const size_t level = static_cast<size_t>(name[3] - 'A') + 1;
      const CMakeValue* v = p.package.evaluation.variables.Find(name + "_LEVEL");
      EXPECT_TRUE(v && v->text == std::string(level, '+')) << name;
    }
    return stats;
  }
};

// Before, a fixed point evaluated every package whose inputs changed in every round, one
// level of the chain a round (14 packages: 27 evaluations in 13 rounds; at first the K-th
// level was evaluated K times, 105), and every config's name was searched for in every
// audited directory (28 and 105 searches).
TEST_F(CMakeEvaluationCost, AChainTwiceAsLongCostsTwiceAsMuch) {
  const CMakeRunStats half = Evaluate(7), whole = Evaluate(14);
  // Each package once: the first asks for the last's dependencies, evaluated as it asks.
  EXPECT_EQ(half.evaluations, 7u);
  EXPECT_EQ(whole.evaluations, 14u);
  // Each config found once where it is; no other directory is read for its name.
  EXPECT_LE(whole.config_searches, 14u);
  EXPECT_LE(whole.config_searches * 10, half.config_searches * 25)
      << half.config_searches << " -> " << whole.config_searches;
}

// Each list file is parsed at most twice per run, however many evaluations run it: before,
// each evaluation parsed its config and every file it included (14 packages evaluated 27
// times with a helper and a version file each: 54 parses of the configs and helpers alone).
// A file is dropped when the first evaluation that ran it ends (ProgramCache::ForgetUnshared);
// the helper every package includes is parsed once more by the second, then kept.
TEST_F(CMakeEvaluationCost, EachListFileIsParsedAtMostTwicePerRun) {
  const CMakeRunStats whole = Evaluate(14);
  EXPECT_EQ(whole.parses, 2 * 14u + 2) << whole.evaluations << " evaluations";  // configs, version files
}

// Each package's config runs once per evaluation of it, and its version file once a run:
// before, an evaluation in the fixed point ran its config twice (once more for its own
// targets, which it already knew) and every evaluation read the version file twice (for the
// passes and for the package assembled of them): 14 packages, 8 list files each.
TEST_F(CMakeEvaluationCost, EachEvaluationRunsTheConfigOnceAndTheVersionFileOnce) {
  const CMakeRunStats half = Evaluate(7), whole = Evaluate(14);
  // Each package: its config once (its if(TARGET) on the level below decided, as that level
  // was evaluated when it was found), its version file once.
  EXPECT_EQ(whole.list_file_evaluations, 14 * 2u) << whole.evaluations << " evaluations";
  EXPECT_EQ(whole.list_file_evaluations - half.list_file_evaluations, 7 * 2u);
}

// A config is evaluated inside the find_package() that loads it, so evaluations nest as
// deep as the chain of dependencies (up to kMaxDependencyDepth), each with its own nested
// calls (up to EvaluatorLimits::max_depth). That depth must not depend on the caller's stack:
// here the run starts on a thread with a small stack (as under `ulimit -s 512`), which such a
// chain overflowed when it was evaluated there.
TEST_F(CMakeEvaluationCost, AChainOfNestedCallsAndDependenciesNeedsNoLargeStack) {
  constexpr size_t kChain = 40;
  for (size_t i = 0; i < kChain; ++i) {
    const std::string n = "Deep" + std::to_string(100 + i), next = "Deep" + std::to_string(101 + i);
    Write("deep/lib/cmake/" + n + "/" + n + "Config.cmake",
          "include(CMakeFindDependencyMacro)\n"
          "function(down k)\n  if(k GREATER 0)\n    math(EXPR j \"${k} - 1\")\n    down(${j})\n"
          "  else()\n" +
              (i + 1 < kChain ? "    find_dependency(" + next + ")\n" : std::string()) +
              "  endif()\nendfunction()\ndown(28)\nadd_library(" + n + "::lib INTERFACE IMPORTED)\n");
  }
  RootedFs fs;
  WalkResult walk = WalkInputs({(dir_ / "deep/lib/cmake/Deep100").string()}, fs);
  CMakeRunStats stats;
  std::vector<AuditedPackage> packages;
  RunOnStack(size_t(512) << 10, [&] {
    packages = EvaluateCMakePackages(walk.files, fs, {{(dir_ / "deep").string()}, false}, &stats);
  });
  ASSERT_EQ(packages.size(), 1u);
  // The audited package and the configs below it, as deep as the bound lets them be.
  EXPECT_EQ(stats.evaluations, 24u);
  ASSERT_EQ(packages[0].package.dependencies.size(), 1u);
  EXPECT_TRUE(packages[0].package.dependencies[0].evaluated);
}

}  // namespace
}  // namespace rocm_audit
