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
    CMakePackage c{.name = "Con", .config = con};
    std::vector<CMakePackage*> all{&c};
    std::vector<std::string> prefixes;
    for (const std::string& p : given) prefixes.push_back((dir_ / p).string());
    ConfigSearch search(files_);
    DependencyLocator locator(all, prefixes, prefixes.size(), false, files_, search);
    locator.EvaluateAudited();
    return c.dependencies.empty() ? "<none>" : c.dependencies[0].found;
  }

  // The dependencies of a consumer config `body` finds, located in the scratch directory.
  CMakePackage Consumer(const std::string& body) {
    CMakePackage c{.name = "Con", .config = Write("con/lib/cmake/Con/ConConfig.cmake", body)};
    std::vector<CMakePackage*> all{&c};
    std::vector<std::string> prefixes{dir_.string()};
    ConfigSearch search(files_);
    DependencyLocator locator(all, prefixes, prefixes.size(), false, files_, search);
    locator.EvaluateAudited();
    return c;
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
// directory lists that holds a config, not the first by name; <name>* is in any case. A
// RememberingGlobs() copy looks names up in a sorted index of each directory and gives the
// same entries in the same order.
TEST_F(DependencySearch, NamedDirectoriesAreSearchedAsTheDirectoryListsThem) {
  for (const char* d : {"dep-1", "DEP-2", "dep-3", "Dep-4", "dep-5", "dep-6"})
    Write(std::string("prefix/lib/") + d + "/cmake/DepConfig.cmake", "");
  for (const char* d : {"de", "deq", "a-dep", "depot"}) Write(std::string("prefix/lib/") + d + "/x", "");
  std::vector<std::string> listed;
  DIR* listing = opendir((dir_ / "prefix/lib").c_str());
  ASSERT_NE(listing, nullptr);
  while (const dirent* e = readdir(listing))
    if (std::string name = e->d_name;
        name.size() >= 3 && (name[0] | 0x20) == 'd' && (name[1] | 0x20) == 'e' && (name[2] | 0x20) == 'p')
      listed.push_back((dir_ / "prefix/lib" / name).string());
  closedir(listing);
  ASSERT_EQ(listed.size(), 7u);
  const InstalledFiles remembering = files_.RememberingGlobs();
  const std::string lib = (dir_ / "prefix/lib").string();
  EXPECT_EQ(files_.EntriesStartingWith(lib, "dEp"), listed);
  EXPECT_EQ(remembering.EntriesStartingWith(lib, "dEp"), listed);
  EXPECT_EQ(remembering.EntriesStartingWith(lib, "Dep"), listed);  // the index, read once
  EXPECT_TRUE(remembering.EntriesStartingWith(lib, "dept").empty());
  for (const InstalledFiles* files : {static_cast<const InstalledFiles*>(&files_), &remembering})
    EXPECT_EQ(FindConfigUnder((dir_ / "prefix").string(), "Dep", *files).value_or(""),
              listed[0] + "/cmake/DepConfig.cmake");
}

// What a config defines may depend on the components asked of it: Qt5Config.cmake loads
// Qt5<Component>Config.cmake for each of Qt5_FIND_COMPONENTS. A dependency asked for
// components (after COMPONENTS or REQUIRED; OPTIONAL_COMPONENTS with _FIND_REQUIRED_ 0) is
// evaluated for that request (cmake 3.25.1: find_package(Qt5 5.15 COMPONENTS Widgets)
// defines Qt5::Widgets, find_package(Qt5 5.15) does not).
TEST_F(DependencySearch, ADependencyAskedForComponentsIsEvaluatedForThem) {
  Write("lib/cmake/Dep/DepConfig.cmake",
        "foreach(c IN LISTS Dep_FIND_COMPONENTS)\n"
        "  if(Dep_FIND_REQUIRED_${c})\n    add_library(Dep::${c} INTERFACE IMPORTED)\n"
        "  else()\n    add_library(Dep::optional_${c} INTERFACE IMPORTED)\n  endif()\n"
        "endforeach()\nadd_library(Dep::core INTERFACE IMPORTED)\n");
  CMakePackage c = Consumer(
      "include(CMakeFindDependencyMacro)\nfind_dependency(Dep COMPONENTS Widgets OPTIONAL_COMPONENTS Gl)\n"
      "find_package(Dep REQUIRED Sql)\nfind_dependency(Dep)\n");
  ASSERT_EQ(c.dependencies.size(), 3u);
  EXPECT_EQ(c.dependencies[0].targets.set(),
            (std::set<std::string>{"Dep::Widgets", "Dep::optional_Gl", "Dep::core"}));
  EXPECT_EQ(c.dependencies[1].targets.set(), (std::set<std::string>{"Dep::Sql", "Dep::core"}));
  EXPECT_EQ(c.dependencies[2].targets.set(), (std::set<std::string>{"Dep::core"}));
  EXPECT_TRUE(c.dependencies[0].targets_known);
}

// A Find module the package ships is what find_package() loads; the find_package() calls it
// makes are what a consumer loads through it (VTK's FindTBB.cmake loads TBB's config).
TEST_F(DependencySearch, WhatAShippedFindModuleFindsIsListedThroughIt) {
  const std::string dep =
      Write("lib/cmake/Dep/DepConfig.cmake", "add_library(Dep::dep INTERFACE IMPORTED)\n");
  const std::string module = Write("con/lib/cmake/Con/FindBar.cmake", "find_package(Dep CONFIG)\n");
  CMakePackage c = Consumer(
      "list(APPEND CMAKE_MODULE_PATH ${CMAKE_CURRENT_LIST_DIR})\n"
      "include(CMakeFindDependencyMacro)\nfind_dependency(Bar)\n");
  ASSERT_EQ(c.dependencies.size(), 1u);
  EXPECT_EQ(c.dependencies[0].found, module);
  ASSERT_EQ(c.dependencies[0].through_module.size(), 1u);
  EXPECT_EQ(c.dependencies[0].through_module[0].name, "Dep");
  EXPECT_EQ(c.dependencies[0].through_module[0].found, dep);
}

// CMake's generated Targets file tests the targets of other export sets it links
// (Qt6CoreTargets.cmake: Qt6::Platform, which Qt6's config defines) and sets
// <Name>_NOT_FOUND_MESSAGE_targets only when one is missing, then tests if(DEFINED) of it.
// A config outside the audited ones is evaluated without its dependencies' targets: that
// if(TARGET) is undecided, and so is the DEFINED after it; Mod's Mod_FOUND is not false
// (it was, and every config requiring Qt6Core, audited alone, "could not find" it).
TEST_F(DependencySearch, AVariableSetOnlyWhereATargetOfADependencyIsMissingLeavesFoundUnknown) {
  Write("lib/cmake/Base/BaseConfig.cmake", "add_library(Base::Platform INTERFACE IMPORTED)\n");
  Write("lib/cmake/Mod/ModConfig.cmake",
        "include(CMakeFindDependencyMacro)\nfind_dependency(Base)\n"
        "add_library(Base::Mod INTERFACE IMPORTED)\n"
        "foreach(_target \"Base::Platform\")\n  if(NOT TARGET \"${_target}\")\n"
        "    set(${CMAKE_FIND_PACKAGE_NAME}_NOT_FOUND_MESSAGE_targets \"${_target}\")\n  "
        "endif()\nendforeach()\n"
        "if(DEFINED ${CMAKE_FIND_PACKAGE_NAME}_NOT_FOUND_MESSAGE_targets)\n"
        "  set(${CMAKE_FIND_PACKAGE_NAME}_FOUND FALSE)\nendif()\n");
  CMakePackage c = Consumer("include(CMakeFindDependencyMacro)\nfind_dependency(Mod)\n");
  ASSERT_EQ(c.dependencies.size(), 1u);
  ASSERT_TRUE(c.dependencies[0].evaluated);
  ASSERT_TRUE(c.dependencies[0].variables);
  const CMakeValue* found = c.dependencies[0].variables.Find("Mod_FOUND");
  EXPECT_TRUE(!found || !found->known) << found->text;
}

}  // namespace
}  // namespace rocm_audit
