// pkg-config's answer from the audited world's .pc files, held to the machine's own
// pkg-config (pkgconf) on the same files, and FindPkgConfig's pkg_check_modules /
// pkg_search_module answered by it in a config's evaluation.
#include "audit/cmake/pkg_config_world.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "audit/cmake/package_config.h"
#include "tests/support/scratch_dir_test.h"
#include "tests/support/test_support.h"

namespace rocm_audit {
namespace {

class PkgConfigWorld : public testing::ScratchDirTest {
 protected:
  void Pc(const std::string& name, const std::string& version, const std::string& more = "") {
    Write("usr/lib/pkgconfig/" + name + ".pc",
          "prefix=/usr\nmajor=1\nName: " + name + "\nDescription: x\nVersion: " + version + "\n" + more);
  }
};

TEST(PkgConfigVersions, CompareAsPkgconf) {
  EXPECT_EQ(ComparePkgConfigVersions("1.2.3", "1.2.3"), 0);
  EXPECT_LT(ComparePkgConfigVersions("1.2", "1.10"), 0);
  EXPECT_GT(ComparePkgConfigVersions("1.2.3", "1.2"), 0);
  EXPECT_LT(ComparePkgConfigVersions("1.0~rc1", "1.0"), 0);
  EXPECT_GT(ComparePkgConfigVersions("1.0a", "1.0"), 0);
  EXPECT_GT(ComparePkgConfigVersions("2", "1a"), 0);
  EXPECT_EQ(ComparePkgConfigVersions("1.02", "1.2"), 0);
  EXPECT_LT(ComparePkgConfigVersions("1.2.3", "1.2.3a"), 0);
}

// Each query gets pkgconf's answer on the same files (PKG_CONFIG_LIBDIR replaces its
// default path).
TEST_F(PkgConfigWorld, AgreesWithPkgConfigOnTheSameFiles) {
  Pc("base", "1.2.3", "Requires.private: gone\n");
  Pc("mid", "2.0", "Requires: leaf >= 1.5, other\n");
  Pc("leaf", "1.10");
  Pc("other", "0.9~beta", "Requires: leaf\n");
  Pc("old", "1.4", "Requires: leaf < 1.2\n");
  Pc("ver", "${major}.7");
  const std::string lib = (dir_ / "usr/lib/pkgconfig").string();
  const std::vector<std::string> path{lib};
  RootedFs fs;
  InstalledFiles files(fs, {});
  int compared = 0;
  for (const char* spec :
       {"leaf", "mid", "base", "old", "gone", "other", "leaf >= 1.9", "leaf>=1.11", "leaf = 1.10",
        "leaf != 1.10", "other < 0.9", "ver >= 1.7", "ver > 1.7", "mid <= 2"}) {
    PkgConfigAnswer answer = PkgConfigExists(spec, path, files);
    std::string out;
    int rc = testing::RunCommand(
        "command -v pkg-config >/dev/null || exit 77; PKG_CONFIG_PATH= PKG_CONFIG_LIBDIR='" + lib +
            "' pkg-config --exists '" + spec + "'",
        &out);
    ASSERT_NE(rc, 77) << "no pkg-config: the README's first command installs it";
    ++compared;
    EXPECT_EQ(answer.found, rc == 0) << spec << ": " << answer.why;
  }
  EXPECT_EQ(compared, 14);
  EXPECT_EQ(PkgConfigExists("ver", path, files).version, "1.7");
  EXPECT_NE(PkgConfigExists("base", path, files).why.find("gone"), std::string::npos);
}

// In a config: a module the world has defines PkgConfig::<prefix> and sets <prefix>_FOUND;
// one it lacks leaves both unset, and REQUIRED stops the configure with FindPkgConfig's
// message, naming the world's answer. Packages installed into no base leave it unknown.
TEST_F(PkgConfigWorld, PkgCheckModulesIsAnsweredByTheWorld) {
  Pc("have", "3.1");
  Write("usr/lib/cmake/P/PConfig.cmake",
        "find_package(PkgConfig)\npkg_check_modules(H IMPORTED_TARGET have>=3)\n"
        "pkg_check_modules(N IMPORTED_TARGET nothere)\npkg_search_module(S nothere have)\n"
        "pkg_check_modules(R REQUIRED nothere)\nset(after yes)\n");
  RootedFs world(std::vector<std::string>{dir_.string()});
  InstalledFiles files(world, {});
  CMakePackage p = EvaluatePackage("P", "/usr/lib/cmake/P/PConfig.cmake", files);
  auto var = [&](const CMakePackage& q, const std::string& name) -> std::string {
    const CMakeValue* v = q.evaluation.variables.Find(name);
    if (!v) return "<undefined>";
    return v->known ? v->text : "<unknown>";
  };
  auto has_target = [](const CMakePackage& q, const std::string& name) {
    return std::any_of(q.evaluation.targets.begin(), q.evaluation.targets.end(),
                       [&](const CMakeTarget& t) { return t.name == name; });
  };
  EXPECT_EQ(var(p, "H_FOUND"), "1");
  EXPECT_EQ(var(p, "H_VERSION"), "3.1");
  EXPECT_TRUE(has_target(p, "PkgConfig::H"));
  EXPECT_EQ(var(p, "N_FOUND"), "");
  EXPECT_FALSE(has_target(p, "PkgConfig::N"));
  EXPECT_EQ(var(p, "S_FOUND"), "1");
  EXPECT_EQ(var(p, "S_MODULE_NAME"), "have");
  EXPECT_EQ(var(p, "after"), "<undefined>");
  ASSERT_TRUE(p.evaluation.stopped);
  ASSERT_FALSE(p.evaluation.failures.empty());
  EXPECT_NE(p.evaluation.failures.back().message.find("A required package was not found (pkg-config of the "
                                                      "audited world: no nothere.pc"),
            std::string::npos)
      << p.evaluation.failures.back().message;

  InstalledFiles no_base(world, {}, false);
  CMakePackage q = EvaluatePackage("P", "/usr/lib/cmake/P/PConfig.cmake", no_base);
  EXPECT_EQ(var(q, "H_FOUND"), "<unknown>");
  EXPECT_EQ(var(q, "N_FOUND"), "<unknown>");
  EXPECT_FALSE(q.evaluation.stopped);
  EXPECT_TRUE(has_target(q, "PkgConfig::N"));  // FindPkgConfig defines it when pkg-config finds the module
}

// A Find module as Qt 6 ships them (FindMtdev.cmake): after pkg_check_modules(IMPORTED_TARGET)
// of a module the world lacks, if(NOT TARGET PkgConfig::<prefix>) is decided, since nothing
// else defines that name, and the module's <Name>_FOUND 0 is what find_dependency() sees.
// Another dependency's target stays undecided.
TEST_F(PkgConfigWorld, AnImportedTargetPkgConfigDidNotDefineIsAbsent) {
  Write("usr/lib/cmake/P/PConfig.cmake",
        "find_package(PkgConfig QUIET)\npkg_check_modules(Mtdev nothere IMPORTED_TARGET)\n"
        "if(NOT TARGET PkgConfig::Mtdev)\n  set(Mtdev_FOUND 0)\nendif()\n"
        "if(TARGET Other::other)\n  set(other yes)\nendif()\n");
  RootedFs world(std::vector<std::string>{dir_.string()});
  InstalledFiles files(world, {});
  CMakePackage p = EvaluatePackage("P", "/usr/lib/cmake/P/PConfig.cmake", files);
  const CMakeValue* found = p.evaluation.variables.Find("Mtdev_FOUND");
  ASSERT_NE(found, nullptr);
  EXPECT_TRUE(found->known);
  EXPECT_EQ(found->text, "0");
  const CMakeValue* other = p.evaluation.variables.Find("other");
  ASSERT_NE(other, nullptr);
  EXPECT_FALSE(other->known);  // set on one branch of an undecided if()
}

}  // namespace
}  // namespace rocm_audit
