// Where find_dependency() finds a config, in find_package()'s order as CMake 3.25 searches
// (cmFindPackageCommand): the consumer's CMAKE_PREFIX_PATH, then HINTS, then the system
// prefixes, then PATHS; and within a prefix, the first `<name>*` directory as the directory
// lists it (CMAKE_FIND_PACKAGE_SORT_ORDER unset: no sorting).
#include <dirent.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "audit/cmake/dependency_locator.h"
#include "audit/cmake/package_config.h"
#include "tests/support/scratch_dir_test.h"

namespace rocm_audit {
namespace {

class DependencySearch : public testing::ScratchDirTest {
 protected:
  // A config of Dep under `prefix`, whose version file says `version`.
  std::string Dep(const std::string& prefix, const std::string& version) {
    Write(prefix + "/lib/cmake/Dep/DepConfigVersion.cmake",
          "set(PACKAGE_VERSION " + version +
              ")\nif(PACKAGE_FIND_VERSION VERSION_GREATER PACKAGE_VERSION)\n"
              "  set(PACKAGE_VERSION_COMPATIBLE FALSE)\nelse()\n  set(PACKAGE_VERSION_COMPATIBLE "
              "TRUE)\nendif()\n");
    return Write(prefix + "/lib/cmake/Dep/DepConfig.cmake", "add_library(Dep::dep INTERFACE IMPORTED)\n");
  }
  // Where a consumer config that asks for Dep with `arguments` finds it, the consumer's
  // CMAKE_PREFIX_PATH being `given`.
  std::string FoundWith(const std::string& arguments, const std::vector<std::string>& given) {
    const std::string con =
        Write("con/lib/cmake/Con/ConConfig.cmake",
              "include(CMakeFindDependencyMacro)\nfind_dependency(Dep " + arguments + ")\n");
    CMakePackage c = EvaluatePackage("Con", con, files_);
    std::vector<CMakePackage*> all{&c};
    std::vector<std::string> prefixes;
    for (const std::string& p : given) prefixes.push_back((dir_ / p).string());
    ConfigSearch search(files_);
    DependencyLocator locator(all, prefixes, prefixes.size(), false, files_, search);
    locator.Locate(all);
    return c.dependencies.empty() ? "<none>" : c.dependencies[0].found;
  }

  RootedFs fs_;
  InstalledFiles files_{fs_, {}};
};

// LLVM 14's ClangConfig asks for LLVM with HINTS its own prefix; a consumer whose
// CMAKE_PREFIX_PATH holds another LLVM gets that one (checked with cmake 3.25.1 on Debian 12:
// find_package(Clang) of llvm-14 with -DCMAKE_PREFIX_PATH=/usr loads LLVM 19).
TEST_F(DependencySearch, ThePrefixPathComesBeforeHintsAndHintsBeforePaths) {
  const std::string given = Dep("given", "2.0");
  const std::string hinted = Dep("hinted", "1.0");
  const std::string listed = Dep("listed", "3.0");
  const std::string h = (dir_ / "hinted").string(), p = (dir_ / "listed").string();
  EXPECT_EQ(FoundWith("CONFIG HINTS " + h + " PATHS " + p, {"given"}), given);
  EXPECT_EQ(FoundWith("CONFIG PATHS " + p + " HINTS " + h, {}), hinted);
  EXPECT_EQ(FoundWith("CONFIG PATHS " + p, {}), listed);
  // A version the first one turns down goes on to the next place.
  EXPECT_EQ(FoundWith("3.0 CONFIG HINTS " + h + " PATHS " + p, {"given"}), listed);
}

// Of several `<name>*` directories in one prefix, find_package() takes the first the
// directory lists that holds a config, not the first by name.
TEST_F(DependencySearch, NamedDirectoriesAreSearchedAsTheDirectoryListsThem) {
  for (const char* d : {"dep-1", "dep-2", "dep-3", "dep-4", "dep-5", "dep-6"})
    Write(std::string("prefix/lib/") + d + "/cmake/DepConfig.cmake", "");
  std::string first;
  DIR* listing = opendir((dir_ / "prefix/lib").c_str());
  ASSERT_NE(listing, nullptr);
  while (const dirent* e = readdir(listing))
    if (std::string(e->d_name).starts_with("dep-")) {
      first = e->d_name;
      break;
    }
  closedir(listing);
  EXPECT_EQ(FindConfigUnder((dir_ / "prefix").string(), "Dep", files_).value_or(""),
            (dir_ / "prefix/lib" / first / "cmake/DepConfig.cmake").string());
}

}  // namespace
}  // namespace rocm_audit
