// CMake's semantics where a package config meets what find_package() and the language leave
// it: the results of CMake's own Find modules, what a dependency sets, the search procedure,
// IN_LIST's operand, the consumer's build directory. Each case is one real CMake 3.25
// answers the same way (tests/cli/cmake_agreement_test.cc runs the fixtures of
// fixtures/make_cmake_tree.sh that it differs on through real cmake).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "audit/cmake/cmake_modules.h"
#include "audit/cmake/dependency_locator.h"
#include "audit/cmake/evaluator.h"
#include "audit/cmake/lists.h"
#include "audit/cmake/package_config.h"
#include "audit/cmake/project_cmake_facts.h"
#include "tests/support/scratch_dir_test.h"
#include "tests/support/test_support.h"

namespace rocm_audit {
namespace {

class CMakeSemantics : public testing::ScratchDirTest {
 protected:
  static std::string Var(const CMakeEvaluation& r, const std::string& name) {
    const CMakeValue* v = r.variables.Find(name);
    if (!v) return "<undefined>";
    return v->known ? v->text : "<unknown>";
  }
  std::string Config(const std::string& name, const std::string& text) {
    return Write("prefix/lib/cmake/" + name + "/" + name + "Config.cmake", text);
  }
  // `packages` evaluated as a run evaluates the audited ones, the consumer's CMAKE_PREFIX_PATH
  // being the scratch prefix; `system`: on an installed system (the host). How many configs
  // outside them were evaluated.
  size_t EvaluateTogether(std::vector<CMakePackage*> packages, bool system = false) {
    ConfigSearch search(files_);
    DependencyLocator locator(std::move(packages), {(dir_ / "prefix").string()}, 1, system, files_, search);
    locator.EvaluateAudited();
    return locator.evaluated();
  }

  // `packages` (configs named by installed path) evaluated as a run over the installed system
  // dir_/world (--root) evaluates the audited ones.
  void EvaluateInWorld(std::vector<CMakePackage*> packages) {
    RootedFs fs((dir_ / "world").string());
    InstalledFiles files(fs, {});
    ConfigSearch search(files);
    DependencyLocator locator(std::move(packages), {"/usr"}, 0, true, files, search);
    locator.EvaluateAudited();
  }

  // Base; Mid, which finds Base and defines nothing; Top, which finds Mid: `base` and `top`
  // are what Base and Top define. Mid and Top, evaluated together.
  std::pair<CMakePackage, CMakePackage> ThreeLevels(const std::string& base, const std::string& top) {
    Config("Base", base);
    std::pair<CMakePackage, CMakePackage> out{
        {.name = "Mid",
         .config = Config("Mid", "include(CMakeFindDependencyMacro)\nfind_dependency(Base)\n")},
        {.name = "Top",
         .config = Config("Top", "include(CMakeFindDependencyMacro)\nfind_dependency(Mid)\n" + top)}};
    EvaluateTogether({&out.first, &out.second});
    return out;
  }

  RootedFs fs_;
  InstalledFiles files_{fs_, {}};
};

// find_dependency(OpenMP COMPONENTS C) through CMake's own FindOpenMP: a required call that
// succeeds found each component (find_package_handle_standard_args(HANDLE_COMPONENTS)), so
// SuiteSparse_config's if(NOT OpenMP_C_FOUND) after it is false; an optional component is
// the consumer's machine's answer.
TEST_F(CMakeSemantics, AFindModuleOfCMakeLeavesTheComponentsItFound) {
  CMakePackage p = EvaluatePackage("Omp",
                                   Config("Omp",
                                          "include(CMakeFindDependencyMacro)\n"
                                          "find_dependency(OpenMP COMPONENTS C OPTIONAL_COMPONENTS Fortran)\n"
                                          "if(NOT OpenMP_C_FOUND)\n"
                                          "  set(Omp_FOUND FALSE)\n  return()\nendif()\n"
                                          "add_library(Omp::omp INTERFACE IMPORTED)\n"),
                                   files_);
  EXPECT_TRUE(p.evaluation.failures.empty()) << p.evaluation.failures[0].message;
  EXPECT_EQ(Var(p.evaluation, "OpenMP_C_FOUND"), "1");
  EXPECT_EQ(Var(p.evaluation, "OPENMP_FOUND"), "1");
  EXPECT_EQ(Var(p.evaluation, "OpenMP_Fortran_FOUND"), "<unknown>");
  ASSERT_EQ(p.evaluation.targets.size(), 1u);
}

// What a dependency loaded through find_dependency() sets is the consumer's: find_package()
// runs the dependency's config in the caller's scope. ROCM 6's config leaves
// ROCM_ERROR_TOOLCHAIN_VAR through ROCmCMakeBuildTools, as ROCM 5's set it itself.
TEST_F(CMakeSemantics, ADependencysVariablesAreTheConsumersResultVariables) {
  CMakePackage tools{
      .name = "Tools",
      .config = Config("Tools", "set(Rocm_ERROR_TOOLCHAIN_VAR OFF CACHE BOOL \"\")\nset(Tools_X 1)\n")};
  CMakePackage rocm{
      .name = "Rocm",
      .config =
          Config("Rocm", "include(CMakeFindDependencyMacro)\nfind_dependency(Tools)\nset(Rocm_OWN 1)\n")};
  EvaluateTogether({&tools, &rocm});
  const std::vector<std::string> names = ProjectCMakeFacts(rocm, true).result_variables;
  EXPECT_NE(std::find(names.begin(), names.end(), "Rocm_ERROR_TOOLCHAIN_VAR"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "Rocm_OWN"), names.end());
  EXPECT_EQ(std::find(names.begin(), names.end(), "Tools_X"), names.end());
}

// cmFindPackageCommand::SearchPrefix's table in its order, as CMake 3.25 on Debian searches
// it (each checked with cmake 3.25.1 and -DCMAKE_PREFIX_PATH=prefix): share/cmake/<name>*/
// before lib/<name>*/ (each pattern over lib/<arch>, lib and share before the next), no
// lib64 (Platform/Linux.cmake on Debian), a directory named cmake in any case, and the
// <name>*/(cmake|CMake)/<name>*/ and <name>*/lib/cmake/<name>*/ places.
TEST_F(CMakeSemantics, EachPrefixIsSearchedByCMakesTableInItsOrder) {
  const std::string prefix = (dir_ / "prefix").string();
  Write("prefix/lib/dep/DepConfig.cmake", "");
  const std::string share = Write("prefix/share/cmake/Dep/DepConfig.cmake", "");
  Write("prefix/lib64/cmake/Dep64/Dep64Config.cmake", "");
  const std::string nested = Write("prefix/Nest-1/CMAKE/Nest/NestConfig.cmake", "");
  const std::string below = Write("prefix/Below-2.0/lib/cmake/Below/below-config.cmake", "");
  EXPECT_EQ(FindConfigUnder(prefix, "Dep", files_).value_or(""), share);
  EXPECT_FALSE(FindConfigUnder(prefix, "Dep64", files_));
  EXPECT_EQ(FindConfigUnder(prefix, "Nest", files_).value_or(""), nested);
  EXPECT_EQ(FindConfigUnder(prefix, "Below", files_).value_or(""), below);
}

// Given --cmake-prefix-path, it is the consumer's CMAKE_PREFIX_PATH: an audited config that
// no search of it reaches is not found (sid's hip config asks find_package(AMDDeviceLibs
// QUIET HINTS ${ROCM_PATH} PATHS /opt/rocm), and AMDDeviceLibs lives in /usr/lib/llvm-21,
// which CMake never searches from /usr). Without it, the audited prefixes stand in for it.
TEST_F(CMakeSemantics, TheAuditedPathsAreNoPrefixOnceThePrefixPathIsGiven) {
  const std::string devlibs_dir = (dir_ / "prefix/lib/llvm-21/lib/cmake/DevLibs").string();
  const std::string devlibs_config = Write("prefix/lib/llvm-21/lib/cmake/DevLibs/DevLibsConfig.cmake", "");
  const std::string hip =
      Config("Hip", "find_package(DevLibs QUIET HINTS /nonexistent/rocm PATHS /opt/rocm)\n");
  for (size_t given : {1u, 0u}) {
    CMakePackage devlibs{.name = "DevLibs", .config = devlibs_config}, consumer{.name = "Hip", .config = hip};
    std::vector<CMakePackage*> all{&devlibs, &consumer};
    std::vector<std::string> prefixes{(dir_ / "prefix").string(), devlibs_dir};
    if (given == 0) prefixes.erase(prefixes.begin());
    ConfigSearch search(files_);
    DependencyLocator locator(all, prefixes, given, false, files_, search);
    locator.EvaluateAudited();
    ASSERT_EQ(consumer.dependencies.size(), 1u);
    EXPECT_EQ(consumer.dependencies[0].found, given ? "" : devlibs.config) << given;
  }
}

// NO_DEFAULT_PATH leaves HINTS and PATHS alone; NO_CMAKE_PATH the prefix path; a <Name>_DIR
// the config set is looked in first (cmFindPackageCommand::HandlePackageMode).
TEST_F(CMakeSemantics, NoDefaultPathAndTheNameDirVariable) {
  const std::string given = Write("given/lib/cmake/Dep/DepConfig.cmake", "");
  const std::string listed = Write("listed/lib/cmake/Dep/DepConfig.cmake", "");
  const std::string set = Write("set/DepConfig.cmake", "");
  auto found = [&](const std::string& body) {
    CMakePackage c{.name = "Con", .config = Config("Con", body)};
    std::vector<CMakePackage*> all{&c};
    ConfigSearch search(files_);
    DependencyLocator locator(all, {(dir_ / "given").string()}, 1, false, files_, search);
    locator.EvaluateAudited();
    return c.dependencies.empty() ? "<none>" : c.dependencies.back().found;
  };
  const std::string paths = " PATHS " + (dir_ / "listed").string() + ")\n";
  EXPECT_EQ(found("find_package(Dep" + paths), given);
  EXPECT_EQ(found("find_package(Dep NO_DEFAULT_PATH" + paths), listed);
  EXPECT_EQ(found("find_package(Dep NO_CMAKE_PATH" + paths), listed);
  EXPECT_EQ(found("set(Dep_DIR " + (dir_ / "set").string() + ")\nfind_package(Dep" + paths), set);
  EXPECT_EQ(found("set(Dep_DIR /nonexistent)\nfind_package(Dep" + paths), given);
}

// if(x IN_LIST "${var}"): the quoted operand names the variable holding the list (VTK 9.3's
// vtk-config.cmake checks each requested component so).
TEST_F(CMakeSemantics, AQuotedInListOperandNamesTheList) {
  CMakePackage p = EvaluatePackage("Vtk",
                                   Config("Vtk",
                                          "set(_known core extra)\nset(_name _known)\n"
                                          "if(NOT core IN_LIST \"${_name}\")\n"
                                          "  set(Vtk_FOUND FALSE)\nendif()\n"),
                                   files_);
  EXPECT_TRUE(p.evaluation.failures.empty()) << p.evaluation.failures[0].message;
}

// The consumer's build directory is a stand-in: a file the config generates there and then
// includes (ament_cmake_core) exists and is not the package's file; nothing is written.
TEST_F(CMakeSemantics, FilesAConfigWritesIntoTheConsumersBuildDirectoryExist) {
  CMakePackage p = EvaluatePackage(
      "Gen",
      Config("Gen",
             "set(g \"${CMAKE_CURRENT_BINARY_DIR}/gen/templates.cmake\")\n"
             "execute_process(COMMAND python3 gen.py OUTPUT_FILE \"${g}\")\n"
             "include(\"${g}\")\n"
             "if(NOT EXISTS \"${g}\")\n  message(FATAL_ERROR \"not generated\")\nendif()\n"
             "configure_file(in.txt out.txt)\n"
             "if(NOT EXISTS ${CMAKE_BINARY_DIR}/out.txt)\n  message(FATAL_ERROR no)\nendif()\n"
             "if(EXISTS ${PROJECT_BINARY_DIR}/other.txt)\n  set(other 1)\nendif()\n"),
      files_);
  EXPECT_TRUE(p.evaluation.failures.empty()) << p.evaluation.failures[0].message;
  for (const CMakeReference& r : p.evaluation.references) ADD_FAILURE() << r.path;
  EXPECT_EQ(Var(p.evaluation, "CMAKE_CURRENT_BINARY_DIR").front(), '/');
  EXPECT_NE(Var(p.evaluation, "other"), "1");  // what the consumer's configure made is unknown
}

// Qt 6.8's Targets files: a private include directory is named under
// $<$<BOOL:$<TARGET_PROPERTY:Qt6::X,_qt_module_has_private_headers>>:...>, and the property is
// set later in the same set_target_properties() call (Tools) or never (Concurrent). CMake
// reads it at generate time: Tools's directory is checked, Concurrent's is not.
TEST_F(CMakeSemantics, ATargetPropertyExpressionReadsTheWholeCallsProperties) {
  const std::string guarded =
      "\\$<\\$<BOOL:\\$<TARGET_PROPERTY:Qt6::NAME,_qt_module_has_private_headers>>:/nowhere/NAME>";
  auto config = [&](const std::string& name, const std::string& more) {
    std::string value = guarded;
    for (size_t at; (at = value.find("NAME")) != std::string::npos;) value.replace(at, 4, name);
    return "add_library(Qt6::" + name + " INTERFACE IMPORTED)\nset_target_properties(Qt6::" + name +
           " PROPERTIES\n  INTERFACE_INCLUDE_DIRECTORIES \"" + value + "\"\n" + more + ")\n";
  };
  CMakePackage p =
      EvaluatePackage("Qt6Mods",
                      Config("Qt6Mods", config("Tools", "  _qt_module_has_private_headers \"TRUE\"\n") +
                                            config("Concurrent", "")),
                      files_);
  std::set<std::string> referenced;
  for (const CMakeReference& r : p.evaluation.references) referenced.insert(r.path);
  EXPECT_EQ(referenced, std::set<std::string>{"/nowhere/Tools"});
}

// A dependency whose config includes a module found nowhere (KPim6Akonadi's
// include(ECMMarkAsTest)) fails the configure of every config that finds it, at every level,
// unless the CMAKE_MODULE_PATH of the call (at any level) may hold the module: the config runs
// in its caller's scope. Qt6's config sets a module path that lacks it.
TEST_F(CMakeSemantics, AModuleADependencyIncludesFailsCallersWhosePathLacksIt) {
  CMakePackage dep{.name = "Dep", .config = Config("Dep", "include(NoSuchModule)\n")};
  auto finding = [&](const std::string& name, const std::string& found, const std::string& before) {
    return Config(name, "include(CMakeFindDependencyMacro)\n" + before + "find_dependency(" + found + ")\n");
  };
  Write("modules/NoSuchModule.cmake", "");
  const std::string holding = (dir_ / "modules").string();
  const std::string lacking = (dir_ / "prefix").string();
  CMakePackage plain{.name = "Plain", .config = finding("Plain", "Dep", "")};
  CMakePackage top{.name = "Top", .config = finding("Top", "Plain", "")};
  CMakePackage elsewhere{.name = "Elsewhere",
                         .config = finding("Elsewhere", "Plain", "set(CMAKE_MODULE_PATH " + lacking + ")\n")};
  CMakePackage pathed{.name = "Pathed",
                      .config = finding("Pathed", "Dep", "list(APPEND CMAKE_MODULE_PATH " + holding + ")\n")};
  CMakePackage above{.name = "Above",
                     .config = finding("Above", "Plain", "set(CMAKE_MODULE_PATH " + holding + ")\n")};
  CMakePackage unknown{.name = "Unknown",
                       .config = finding("Unknown", "Plain",
                                         "if(CMAKE_CXX_COMPILER_LOADED)\n  set(CMAKE_MODULE_PATH " + holding +
                                             ")\nendif()\n")};
  EvaluateTogether({&dep, &plain, &top, &elsewhere, &pathed, &above, &unknown});
  ASSERT_EQ(dep.evaluation.failures.size(), 1u);
  EXPECT_EQ(dep.evaluation.failures[0].module_not_found, "NoSuchModule");
  auto missing_below = [](const CMakePackage& p) {
    return p.dependencies.size() == 1 ? p.dependencies[0].missing_below
                                      : "<" + std::to_string(p.dependencies.size()) + ">";
  };
  EXPECT_EQ(
      missing_below(plain).rfind("Dep fails: include(NoSuchModule) finds no module (DepConfig.cmake:1", 0),
      0u)
      << missing_below(plain);
  EXPECT_EQ(missing_below(top), missing_below(plain));
  EXPECT_EQ(missing_below(elsewhere), missing_below(plain));
  EXPECT_EQ(missing_below(pathed), "");
  EXPECT_EQ(missing_below(above), "");
  EXPECT_EQ(missing_below(unknown), "");
}

// A command of one of CMake's modules called before any file included that module (sbml's
// FindBZ2.cmake calls check_library_exists()) is CMake's "Unknown CMake command": it fails
// every config that finds the dependency, at every level, unless one on the way included the
// module, or one that includes it, before its call, itself or through a dependency it had
// found (CMake's commands are global). What the dependency defines after the call is still read.
TEST_F(CMakeSemantics, AModuleCommandADependencyCallsFailsCallersThatLackTheModule) {
  CMakePackage dep{.name = "Dep",
                   .config = Config("Dep", "check_library_exists(m sin \"\" HAVE_SIN)\nset(after 1)\n")};
  Config("Other", "");
  Config("Checks", "include(CheckLibraryExists)\n");
  Config("Push", "cmake_push_check_state()\n");
  Config("Skips", "while(\"$ENV{X}\")\n  include(CheckLibraryExists)\nendwhile()\n");
  auto finding = [&](const std::string& name, const std::string& found, const std::string& before) {
    return Config(name, "include(CMakeFindDependencyMacro)\n" + before + "find_dependency(" + found + ")\n");
  };
  CMakePackage plain{.name = "Plain", .config = finding("Plain", "Dep", "")};
  CMakePackage top{.name = "Top", .config = finding("Top", "Plain", "")};
  CMakePackage including{.name = "Including",
                         .config = finding("Including", "Dep", "include(CheckLibraryExists)\n")};
  CMakePackage through{.name = "Through", .config = finding("Through", "Dep", "include(FindThreads)\n")};
  CMakePackage above{.name = "Above", .config = finding("Above", "Plain", "include(CheckLibraryExists)\n")};
  // A dependency found before defines the commands of the modules it included, and only
  // those: Other includes none, Checks the one, CMake's FindThreads it too (but not
  // CMakePushCheckState); one found
  // nowhere here may include anything on the consumer's machine.
  CMakePackage later{.name = "Later", .config = finding("Later", "Dep", "find_dependency(Other)\n")};
  CMakePackage checks{.name = "AfterChecks",
                      .config = finding("AfterChecks", "Dep", "find_dependency(Checks)\n")};
  CMakePackage threads{.name = "AfterThreads",
                       .config = finding("AfterThreads", "Dep", "find_dependency(Threads)\n")};
  CMakePackage threads_push{.name = "ThreadsPush",
                            .config = finding("ThreadsPush", "Push", "find_dependency(Threads)\n")};
  CMakePackage skips{.name = "AfterSkips",
                     .config = finding("AfterSkips", "Dep", "find_dependency(Skips)\n")};
  CMakePackage nowhere{.name = "AfterNowhere",
                       .config = finding("AfterNowhere", "Dep", "find_package(Nowhere QUIET)\n")};
  CMakePackage own{.name = "Own",
                   .config = Config("Own",
                                    "include(CMakeFindDependencyMacro)\nfind_dependency(Other)\n"
                                    "if(COMMAND check_library_exists)\n  set(guarded 1)\nendif()\n"
                                    "if(COMMAND find_dependency)\n  set(has_find_dependency 1)\nendif()\n"
                                    "check_library_exists(m sin \"\" HAVE_SIN)\n"
                                    "check_library_exists(m cos \"\" HAVE_COS)\n")};
  EvaluateTogether({&dep, &plain, &top, &including, &through, &above, &later, &checks, &threads,
                    &threads_push, &skips, &nowhere, &own});
  ASSERT_EQ(dep.evaluation.failures.size(), 1u);
  EXPECT_EQ(dep.evaluation.failures[0].message,
            "Unknown CMake command \"check_library_exists\" (CheckLibraryExists is not included).");
  EXPECT_EQ(dep.evaluation.failures[0].module_command, "check_library_exists");
  EXPECT_EQ(Var(dep.evaluation, "after"), "1");
  auto missing_below = [](const CMakePackage& p) {
    return p.dependencies.empty() ? "<none>" : p.dependencies.back().missing_below;
  };
  EXPECT_EQ(
      missing_below(plain),
      "Dep fails: check_library_exists() is an unknown command at DepConfig.cmake:1 (CheckLibraryExists, "
      "which defines it, is not included)");
  EXPECT_EQ(plain.dependencies[0].missing_command, "check_library_exists");
  EXPECT_EQ(missing_below(top), missing_below(plain));
  EXPECT_EQ(missing_below(including), "");
  EXPECT_EQ(missing_below(through), "");
  EXPECT_EQ(missing_below(above), "");
  EXPECT_EQ(missing_below(later), missing_below(plain));
  EXPECT_EQ(missing_below(checks), "");
  EXPECT_EQ(missing_below(threads), "");
  EXPECT_NE(missing_below(threads_push).find("cmake_push_check_state() is an unknown command"),
            std::string::npos);
  EXPECT_EQ(missing_below(skips), "");  // a loop it did not run may include anything
  EXPECT_EQ(missing_below(nowhere), "");
  // if(COMMAND) reads the same (ECMFindQmlModule guards set_package_properties() by it), and
  // CMake stops at the first call: the second is not another failure.
  ASSERT_EQ(own.evaluation.failures.size(), 1u);
  EXPECT_EQ(own.evaluation.failures[0].module_command, "check_library_exists");
  EXPECT_EQ(own.evaluation.failures[0].site.line, 9);
  EXPECT_EQ(Var(own.evaluation, "guarded"), "<undefined>");
  EXPECT_EQ(Var(own.evaluation, "has_find_dependency"), "1");
}

// pkg_check_modules() of a module the world has: FindPkgConfig sets its flags and
// directories from what pkg-config prints, not worked out here, so they are unknown, never
// unset (`if(NOT UUID_LIBRARIES)` read false was a decided failure); PKG_CONFIG_FOUND is
// PKGCONFIG_FOUND under its old name (unset, ignition's FindUUID never defined UUID::UUID).
TEST_F(CMakeSemantics, WhatPkgConfigPrintsIsUnknownNotUnset) {
  Write("world/usr/lib/x86_64-linux-gnu/pkgconfig/uuid.pc", "Name: uuid\nVersion: 2.38\nLibs: -luuid\n");
  Write("world/usr/lib/cmake/Con/ConConfig.cmake",
        "find_package(PkgConfig QUIET)\npkg_check_modules(UUID QUIET uuid)\n"
        "if(NOT UUID_LIBRARIES)\n  message(FATAL_ERROR \"no libraries\")\nendif()\n");
  CMakePackage con{.name = "Con", .config = "/usr/lib/cmake/Con/ConConfig.cmake"};
  EvaluateInWorld({&con});
  EXPECT_EQ(Var(con.evaluation, "UUID_FOUND"), "1");
  EXPECT_EQ(Var(con.evaluation, "UUID_LIBRARIES"), "<unknown>");
  EXPECT_EQ(Var(con.evaluation, "PKG_CONFIG_FOUND"), "<unknown>");
  for (const CMakeFailure& f : con.evaluation.failures) EXPECT_FALSE(f.undecided.empty()) << f.message;
}

// A dependency that stops at a command no list file run so far defines was evaluated apart
// from its caller, whose functions it may call (ignition's FindUUID.cmake calls
// ignition-cmake2's _ign_cmake_parse_arguments): what it would define after that is unknown,
// not missing.
TEST_F(CMakeSemantics, ADependencyStoppedAtAnUnknownCommandIsNotEvaluatedInPart) {
  Config("Dep", "_callers_helper(x)\nadd_library(Dep::dep INTERFACE IMPORTED)\n");
  CMakePackage con{.name = "Con",
                   .config = Config("Con",
                                    "include(CMakeFindDependencyMacro)\nfind_dependency(Dep)\n"
                                    "add_library(Con::con INTERFACE IMPORTED)\n")};
  EvaluateTogether({&con});
  ASSERT_EQ(con.dependencies.size(), 1u);
  EXPECT_FALSE(con.dependencies[0].found.empty());
  EXPECT_FALSE(con.dependencies[0].evaluated);
  EXPECT_FALSE(con.dependencies[0].targets_known);
}

// A dependency whose config include()s a file that is not there (DengCore's, under an unset
// DENG_SDK_DIR) fails the configure of whoever finds it, as a missing file its own check
// stops at does.
TEST_F(CMakeSemantics, ADependencysIncludeOfAMissingFileFailsItsCallers) {
  Config("Dep", "include(\"${DEP_SDK_DIR}/lib/cmake/Dep/DepTargets.cmake\")\n");
  CMakePackage con{.name = "Con",
                   .config = Config("Con", "include(CMakeFindDependencyMacro)\nfind_dependency(Dep)\n")};
  EvaluateTogether({&con});
  ASSERT_EQ(con.dependencies.size(), 1u);
  EXPECT_EQ(con.dependencies[0].missing_below,
            "Dep fails: include(/lib/cmake/Dep/DepTargets.cmake) finds no file (DepConfig.cmake:1)");
}

// Once only dependencies evaluated in part are incomplete, if(TARGET x) of a name in one's
// namespace that its evaluation never defined is false, as cmake-missing-target judges it: a
// generated Targets file's "referenced, but are missing" test then fails the package at
// configure, as CMake does (ignition-physics5-tpe links ignition-physics5-tpelib, which
// nothing it finds defines). Of another namespace it stays undecided.
TEST_F(CMakeSemantics, ATargetAPartlyEvaluatedDependencysNamespaceNeverDefinesDoesNotExist) {
  Config("Dep", "add_library(Dep::core INTERFACE IMPORTED)\nmessage(FATAL_ERROR \"evaluated this far\")\n");
  CMakePackage con{.name = "Con",
                   .config = Config("Con",
                                    "include(CMakeFindDependencyMacro)\nfind_dependency(Dep)\n"
                                    "if(NOT TARGET Dep::tpelib)\n  set(dep_missing 1)\nendif()\n"
                                    "if(NOT TARGET Other::x)\n  set(other_missing 1)\nendif()\n")};
  EvaluateTogether({&con});
  ASSERT_EQ(con.dependencies.size(), 1u);
  EXPECT_TRUE(con.dependencies[0].evaluated);
  EXPECT_FALSE(con.dependencies[0].targets_known);
  EXPECT_EQ(Var(con.evaluation, "dep_missing"), "1");
  EXPECT_EQ(Var(con.evaluation, "other_missing"), "<unknown>");
}

// A required dependency found nowhere fails find_package() of whoever requires it, at every
// level (CMakeFindDependencyMacro: <Name>_FOUND False and return()): Qt6QuickVectorImage
// asks for Qt6Svg, and the package that asks for Qt6QuickVectorImage fails with it.
TEST_F(CMakeSemantics, AMissingDependencyFailsEveryoneWhoRequiresIt) {
  CMakePackage mid{
      .name = "Mid",
      .config = Config("Mid", "include(CMakeFindDependencyMacro)\nfind_dependency(NoSuchPackageAnywhere)\n")};
  CMakePackage top{.name = "Top",
                   .config = Config("Top", "include(CMakeFindDependencyMacro)\nfind_dependency(Mid)\n")};
  CMakePackage side{.name = "Side", .config = Config("Side", "find_package(Mid QUIET)\n")};
  EvaluateTogether({&mid, &top, &side});
  ASSERT_EQ(top.dependencies.size(), 1u);
  EXPECT_EQ(top.dependencies[0].found, mid.config);
  EXPECT_EQ(top.dependencies[0].missing_below.rfind("NoSuchPackageAnywhere is found nowhere (Mid asks", 0),
            0u)
      << top.dependencies[0].missing_below;
  EXPECT_TRUE(mid.dependencies[0].missing_below.empty());
  ASSERT_EQ(side.dependencies.size(), 1u);
  EXPECT_FALSE(side.dependencies[0].request.required);  // the check makes it a note
  EXPECT_TRUE(top.dependencies[0].evaluated);
}

// A config outside the audited set is evaluated as CMake loads it, with its own dependencies'
// commands: KF6Config audited alone gets Qt6::Core through Qt6DBus, whose config defines its
// targets with functions Qt6's config defines. Evaluated without them, Mid's target below
// was unknown and Top's if(TARGET Mid::mid) undecided.
TEST_F(CMakeSemantics, AConfigOutsideTheAuditedOnesIsEvaluatedWithItsDependencies) {
  Config("Core",
         "function(core_add name)\n  add_library(${name} INTERFACE IMPORTED)\nendfunction()\n"
         "add_library(Core::core INTERFACE IMPORTED)\n");
  Config("Mid", "include(CMakeFindDependencyMacro)\nfind_dependency(Core)\ncore_add(Mid::mid)\n");
  CMakePackage top{.name = "Top",
                   .config = Config("Top",
                                    "include(CMakeFindDependencyMacro)\nfind_dependency(Mid)\n"
                                    "if(TARGET Mid::mid)\n  set(r yes)\nelse()\n  set(r no)\nendif()\n")};
  EXPECT_EQ(EvaluateTogether({&top}), 2u);  // Mid and Core, each once
  EXPECT_EQ(Var(top.evaluation, "r"), "yes");
  ASSERT_EQ(top.dependencies.size(), 1u);
  EXPECT_TRUE(top.dependencies[0].targets_known);
  EXPECT_EQ(top.dependencies[0].targets.set(), (std::set<std::string>{"Core::core", "Mid::mid"}));
}

// find_library() and find_path() on a whole installed system look where CMake 3.25 looks
// (each checked with cmake on this machine): lib<name>.so or .a below lib/<arch> or lib of
// the system prefixes, HINTS and PATHS with their PATH_SUFFIXES, a header's directory below
// include; a name found nowhere is <VAR>-NOTFOUND, and REQUIRED stops. The world here is
// the host, which has zlib1g-dev's libz.so and zlib.h (the README's first command).
TEST_F(CMakeSemantics, FindLibraryAndFindPathAskTheInstalledWorld) {
  Write("hinted/sub/libhinted.a", "");
  Write("hinted/inc/deep/hinted.h", "");
  const std::string dir = dir_.string();
  CMakeEvaluation e = EvaluatePackage("Find",
                                      Config("Find",
                                             "find_library(Z NAMES z)\n"
                                             "find_path(ZH zlib.h)\n"
                                             "find_library(NONE NAMES no_such_library_anywhere)\n"
                                             "find_path(NONEH NAMES no_such_header_anywhere.h)\n"
                                             "find_library(HINTED hinted HINTS " +
                                                 dir +
                                                 "/hinted PATH_SUFFIXES sub)\n"
                                                 "find_path(HINTEDH deep/hinted.h PATHS " +
                                                 dir +
                                                 "/hinted/inc)\n"
                                                 "find_library(UNKNOWN NAMES z HINTS $ENV{HOME})\n"
                                                 "find_library(GONE no_such_library_anywhere REQUIRED)\n"
                                                 "set(after 1)\n"),
                                      files_)
                          .evaluation;
  EXPECT_EQ(Var(e, "Z"), "/usr/lib/x86_64-linux-gnu/libz.so");
  EXPECT_EQ(Var(e, "ZH"), "/usr/include");
  EXPECT_EQ(Var(e, "NONE"), "NONE-NOTFOUND");
  EXPECT_EQ(Var(e, "NONEH"), "NONEH-NOTFOUND");
  EXPECT_EQ(Var(e, "HINTED"), dir + "/hinted/sub/libhinted.a");
  EXPECT_EQ(Var(e, "HINTEDH"), dir + "/hinted/inc");
  EXPECT_EQ(Var(e, "UNKNOWN"), "<unknown>");
  EXPECT_EQ(Var(e, "after"), "<undefined>");
  ASSERT_FALSE(e.failures.empty());
  EXPECT_NE(e.failures.back().message.find("Could not find GONE"), std::string::npos);
}

// CMake's own Find<Name>.cmake, run in the installed world when no config is found: the real
// FindCups of the CMake rocm-audit was built with, in a root with and without CUPS's header and
// library. Without them it decides "none": the package that requires Cups fails, and an
// optional find_package(Cups) leaves Cups_FOUND 0 and no Cups::Cups. With them the module's
// answer is the consumer's machine's, and its documented target is taken.
TEST_F(CMakeSemantics, ACMakeFindModuleThatFindsNothingInTheWorldIsNotFound) {
  const std::string module = testing::ReadAll(std::string(kCMakeRoot) + "/Modules/FindCups.cmake");
  ASSERT_FALSE(module.empty());
  Write("world/usr/share/cmake-3.25/Modules/FindCups.cmake", module);
  Write("world/usr/lib/cmake/Req/ReqConfig.cmake",
        "include(CMakeFindDependencyMacro)\nfind_dependency(Cups)\n");
  Write("world/usr/lib/cmake/Opt/OptConfig.cmake",
        "find_package(Cups)\nif(NOT TARGET Cups::Cups)\n  set(Opt_NO_CUPS 1)\nendif()\n");
  auto evaluate = [&]() {
    CMakePackage req{.name = "Req", .config = "/usr/lib/cmake/Req/ReqConfig.cmake"};
    CMakePackage opt{.name = "Opt", .config = "/usr/lib/cmake/Opt/OptConfig.cmake"};
    EvaluateInWorld({&req, &opt});
    return std::make_pair(req, opt);
  };
  auto [req, opt] = evaluate();
  ASSERT_EQ(req.dependencies.size(), 1u);
  EXPECT_EQ(req.dependencies[0].found, "");
  EXPECT_TRUE(req.dependencies[0].targets_known);
  EXPECT_NE(req.dependencies[0].module_finds_none.find("CUPS_INCLUDE_DIR-NOTFOUND"), std::string::npos);
  EXPECT_EQ(Var(opt.evaluation, "Cups_FOUND"), "0");
  EXPECT_EQ(Var(opt.evaluation, "Opt_NO_CUPS"), "1");

  Write("world/usr/include/cups/cups.h", "#define CUPS_VERSION_MAJOR 2\n");
  Write("world/usr/lib/x86_64-linux-gnu/libcups.so", "");
  std::tie(req, opt) = evaluate();
  ASSERT_EQ(req.dependencies.size(), 1u);
  EXPECT_EQ(req.dependencies[0].found, "FindCups.cmake of CMake");
  EXPECT_EQ(req.dependencies[0].module_finds_none, "");
  EXPECT_TRUE(req.dependencies[0].targets.count("Cups::Cups"));
  EXPECT_EQ(Var(opt.evaluation, "Cups_FOUND"), "<unknown>");
}

// CMake's FindPythonInterp runs the consumer's python: what it sets besides <Name>_FOUND is
// that machine's answer. Shiboken2's config compares PYTHON_VERSION_MAJOR with the version it
// was built for; read as unset, that failed a config cmake configures. What the config set
// before the call stays.
TEST_F(CMakeSemantics, WhatAnUnevaluatedCMakeFindModuleSetsIsUnknownNotUnset) {
  const std::string module = testing::ReadAll(std::string(kCMakeRoot) + "/Modules/FindPythonInterp.cmake");
  ASSERT_FALSE(module.empty());
  Write("world/usr/share/cmake-3.25/Modules/FindPythonInterp.cmake", module);
  Write("world/usr/lib/cmake/Py/PyConfig.cmake",
        "set(PYTHON_EXECUTABLE /usr/bin/python3)\nfind_package(PythonInterp 3 REQUIRED)\n"
        "if(NOT PYTHON_VERSION_MAJOR STREQUAL 3)\n  message(FATAL_ERROR \"Detected: "
        "${PYTHON_VERSION_MAJOR}\")\n"
        "endif()\n");
  CMakePackage py{.name = "Py", .config = "/usr/lib/cmake/Py/PyConfig.cmake"};
  EvaluateInWorld({&py});
  EXPECT_EQ(Var(py.evaluation, "PYTHON_VERSION_MAJOR"), "<unknown>");
  EXPECT_EQ(Var(py.evaluation, "PYTHON_VERSION_STRING"), "<unknown>");
  EXPECT_EQ(Var(py.evaluation, "PYTHON_EXECUTABLE"), "/usr/bin/python3");
  EXPECT_EQ(Var(py.evaluation, "PYTHONINTERP_FOUND"), "1");
  EXPECT_EQ(Var(py.evaluation, "PYTHON_NOT_A_RESULT"), "<undefined>");
  for (const CMakeFailure& f : py.evaluation.failures) EXPECT_FALSE(f.undecided.empty()) << f.message;
}

// FindMPI and FindOpenMP define a language's target for a language the consumer enabled
// (and the call asks for, when it asks for components). A consumer's project() enables C and
// CXX: DBCSR links MPI::MPI_Fortran after find_dependency(MPI), and a C++ consumer fails at
// generate. A config that enable_language()s Fortran first gets it.
TEST_F(CMakeSemantics, ALanguagesTargetOfFindMPIIsDefinedForEnabledLanguagesOnly) {
  auto targets = [&](const std::string& text) {
    CMakePackage p{.name = "Top", .config = Config("Top", "include(CMakeFindDependencyMacro)\n" + text)};
    EvaluateTogether({&p});
    EXPECT_EQ(p.dependencies.size(), 1u);
    return p.dependencies.empty()
               ? std::set<std::string>{}
               : std::set<std::string>(p.dependencies[0].targets.begin(), p.dependencies[0].targets.end());
  };
  using Set = std::set<std::string>;
  EXPECT_EQ(targets("find_dependency(MPI)\n"), (Set{"MPI::MPI_C", "MPI::MPI_CXX"}));
  EXPECT_EQ(targets("find_dependency(OpenMP COMPONENTS CXX)\n"), (Set{"OpenMP::OpenMP_CXX"}));
  EXPECT_EQ(targets("find_dependency(MPI COMPONENTS Fortran)\n"), (Set{}));
  EXPECT_EQ(targets("enable_language(Fortran)\nfind_dependency(MPI)\n"),
            (Set{"MPI::MPI_C", "MPI::MPI_CXX", "MPI::MPI_Fortran"}));
  EXPECT_EQ(targets("find_dependency(Threads)\n"), (Set{"Threads::Threads"}));
}

// A config adds to CMAKE_MODULE_PATH (Qt6Config.cmake's list(APPEND)): evaluated apart from
// its caller, it must not take the caller's entries away. Calamares puts its own directory
// there, finds Qt6, then includes its modules from it.
TEST_F(CMakeSemantics, ADependencyAddsToItsCallersModulePath) {
  Config("Dep", "list(APPEND CMAKE_MODULE_PATH /dep/modules)\n");
  Write("prefix/lib/cmake/Top/TopHelpers.cmake", "set(helpers_included 1)\n");
  CMakePackage top{.name = "Top",
                   .config = Config("Top",
                                    "list(APPEND CMAKE_MODULE_PATH ${CMAKE_CURRENT_LIST_DIR})\n"
                                    "find_package(Dep CONFIG REQUIRED)\ninclude(TopHelpers)\n")};
  EvaluateTogether({&top});
  EXPECT_EQ(Var(top.evaluation, "CMAKE_MODULE_PATH"),
            (dir_ / "prefix/lib/cmake/Top").string() + ";/dep/modules");
  EXPECT_EQ(Var(top.evaluation, "helpers_included"), "1");
  EXPECT_TRUE(top.evaluation.failures.empty());
}

// CMake's commands are global: a dependency may call a function its caller defined (Qt6CoreTools'
// config calls _qt_internal_find_third_party_dependencies, which Qt6Config.cmake defined before
// Qt6Core found it). Evaluated apart it stops there; it is evaluated again with the caller's
// commands, and what it then defines is the caller's (Qt6Core's `if(TARGET Qt::Core)` was
// undecided while Qt6CoreTools was not evaluated at all). A caller without the command
// (Qt6WidgetsTools, found alone, finds Qt6CoreTools) keeps the failure, as in CMake.
TEST_F(CMakeSemantics, ADependencyRunsWithTheCommandsItsCallerDefined) {
  Config("Tools", "top_helper()\n");
  CMakePackage top{
      .name = "Top",
      .config = Config("Top",
                       "include(CMakeFindDependencyMacro)\n"
                       "function(top_helper)\n  add_library(Tools::t INTERFACE IMPORTED)\nendfunction()\n"
                       "find_dependency(Tools)\nif(TARGET Tools::t)\n  set(seen 1)\nelse()\n"
                       "  set(seen 0)\nendif()\n")};
  CMakePackage alone{
      .name = "Alone",
      .config = Config("Alone", "include(CMakeFindDependencyMacro)\nfind_dependency(Tools)\n")};
  EvaluateTogether({&top, &alone});
  EXPECT_EQ(Var(top.evaluation, "seen"), "1");
  ASSERT_EQ(top.dependencies.size(), 1u);
  EXPECT_TRUE(top.dependencies[0].evaluated);
  EXPECT_TRUE(top.dependencies[0].targets.count("Tools::t"));
  ASSERT_EQ(alone.dependencies.size(), 1u);
  EXPECT_FALSE(alone.dependencies[0].evaluated);
  EXPECT_FALSE(alone.dependencies[0].targets.count("Tools::t"));
}

// A config found that sets its <Name>_FOUND false: find_package(... REQUIRED) stops the
// configure ("... but it set Dep_FOUND to FALSE so package \"Dep\" is considered to be NOT
// FOUND"), an optional call goes on with Dep_FOUND false. ignition-physics5, asked for its
// component tpe, fails so for ignition-physics5-tpe-plugin.
TEST_F(CMakeSemantics, ARequiredFindPackageOfAConfigThatSetsItsFoundFalseStops) {
  Config("Dep", "set(Dep_NOT_FOUND_MESSAGE \"a component is missing\")\nset(Dep_FOUND FALSE)\n");
  CMakePackage req{.name = "Req", .config = Config("Req", "find_package(Dep REQUIRED)\nset(after 1)\n")};
  CMakePackage opt{.name = "Opt", .config = Config("Opt", "find_package(Dep)\nset(after 1)\n")};
  EvaluateTogether({&req, &opt});
  ASSERT_EQ(req.evaluation.failures.size(), 1u);
  EXPECT_NE(
      req.evaluation.failures[0].message.find("but it set Dep_FOUND to FALSE so package \"Dep\" is "
                                              "considered to be NOT FOUND.  Reason given by package:\na "
                                              "component is missing"),
      std::string::npos)
      << req.evaluation.failures[0].message;
  EXPECT_EQ(Var(req.evaluation, "after"), "<undefined>");
  EXPECT_TRUE(opt.evaluation.failures.empty());
  EXPECT_EQ(Var(opt.evaluation, "Dep_FOUND"), "FALSE");
  EXPECT_EQ(Var(opt.evaluation, "after"), "1");
}

// find_package() of a config runs it in the caller's scope, so a dependency's
// configure_package_config_file() PACKAGE_PREFIX_DIR replaced the caller's until CMake 3.30,
// which gives the caller its own back (libwbxml2 computes its prefix, then finds expat, then
// checks ${PACKAGE_PREFIX_DIR}/include/...). Which applies is the installed system's CMake.
TEST_F(CMakeSemantics, APackagePrefixDirOutlivesADependencyFromCMake330) {
  Write("world/usr/lib/cmake/Dep/DepConfig.cmake", "set(PACKAGE_PREFIX_DIR /dep/prefix)\n");
  Write("world/usr/lib/cmake/Top/TopConfig.cmake",
        "set(PACKAGE_PREFIX_DIR /top/prefix)\ninclude(CMakeFindDependencyMacro)\nfind_dependency(Dep)\n"
        "set(seen ${PACKAGE_PREFIX_DIR})\n");
  auto seen = [&](const std::string& cmake) {
    std::filesystem::create_directories(dir_ / "world/usr/share" / cmake / "Modules");
    CMakePackage top{.name = "Top", .config = "/usr/lib/cmake/Top/TopConfig.cmake"};
    EvaluateInWorld({&top});
    return Var(top.evaluation, "seen");
  };
  EXPECT_EQ(seen("cmake-3.25"), "/dep/prefix");
  EXPECT_EQ(seen("cmake-3.31"), "/top/prefix");
}

// The components a package offers are its own: a dependency's list of components is in the
// scope too, find_package() having run its config there, but asking the package for one of
// them fails (Ceres offered SuiteSparse's AMD, CAMD, ..., each an error of its own).
TEST_F(CMakeSemantics, ADependencysComponentsAreNotThePackages) {
  Config("Dep", "set(Dep_COMPONENTS a b)\nset(Dep_a_FOUND TRUE)\n");
  CMakePackage pkg{.name = "Pkg",
                   .config = Config("Pkg",
                                    "include(CMakeFindDependencyMacro)\nfind_dependency(Dep)\n"
                                    "set(Pkg_COMPONENTS x)\n")};
  EvaluateTogether({&pkg});
  EXPECT_EQ(Var(pkg.evaluation, "Dep_COMPONENTS"), "a;b");
  EXPECT_EQ(pkg.components, std::vector<std::string>{"x"});
}

// What is not a list of the package's components: a count (PCL_NB_COMPONENTS, the
// <Dep>_VERSION_COMPONENTS find_package() leaves), one item a loop set (PCL's `pcl_component`),
// the components it asks of a dependency (PCL_VTK_COMPONENTS). Each was one more evaluation
// and, failing, an error for a component no consumer can ask for.
TEST_F(CMakeSemantics, CountsLoopVariablesAndADependencysRequestAreNotComponents) {
  Config("Vis", "set(Vis_Core_FOUND TRUE)\n");
  CMakePackage pkg{.name = "Pkg",
                   .config = Config("Pkg",
                                    "include(CMakeFindDependencyMacro)\n"
                                    "set(Pkg_VIS_COMPONENTS Core Charts)\n"
                                    "find_dependency(Vis COMPONENTS ${Pkg_VIS_COMPONENTS})\n"
                                    "set(pkg_all_components common io)\n"
                                    "list(LENGTH pkg_all_components Pkg_NB_COMPONENTS)\n"
                                    "foreach(c ${pkg_all_components} people)\n  set(pkg_component pkg_${c})\n"
                                    "endforeach()\n")};
  EvaluateTogether({&pkg});
  EXPECT_EQ(Var(pkg.evaluation, "Pkg_NB_COMPONENTS"), "2");
  EXPECT_EQ(pkg.components, (std::vector<std::string>{"common", "io"}));
}

// A package whose name holds "Components" (Qt6DesignerComponentsPrivate): its own variables
// are no lists of components. Read as such, its module dependencies and targets were 32
// component passes of its config, each evaluating it whole again. Nor is a NOTFOUND marker a
// component (ignition's configs offered "ign_all_components-NOTFOUND" and asked for
// ignition-physics5-ign_all_components-NOTFOUND, a warning on each).
TEST_F(CMakeSemantics, APackageNamedComponentsOffersNoneOfItsVariables) {
  CMakePackage pkg{.name = "QtDesignerComponents",
                   .config = Config("QtDesignerComponents",
                                    "set(_QtDesignerComponents_MODULE_DEPENDENCIES Core Gui)\n"
                                    "set(QtDesignerComponents_LIBRARIES Qt::DesignerComponents)\n"
                                    "set(QtDesignerComponents_Extra_COMPONENTS tools)\n"
                                    // ignition's: get_target_property() of a property not set
                                    "set(ign_all_components ign_all_components-NOTFOUND)\n")};
  EvaluateTogether({&pkg});
  EXPECT_EQ(pkg.components, std::vector<std::string>{"tools"});
}

// An optional find_package() of a package found nowhere: on an installed system, whose every
// prefix is known, CMake's answer (<Name>_FOUND 0, cmFindPackageCommand) is decided; without
// one the consumer's machine may have it. The host's / stands in for the installed system.
TEST_F(CMakeSemantics, AnOptionalDependencyFoundNowhereOnAnInstalledSystemIsNotFound) {
  const std::string con =
      Config("Con",
             "find_package(NoSuchPackageAnywhere QUIET)\n"
             "if(NoSuchPackageAnywhere_FOUND)\n  set(r yes)\nelse()\n  set(r no)\nendif()\n");
  for (bool system : {true, false}) {
    CMakePackage c{.name = "Con", .config = con};
    EvaluateTogether({&c}, system);
    EXPECT_EQ(Var(c.evaluation, "NoSuchPackageAnywhere_FOUND"), system ? "0" : "<unknown>");
    EXPECT_EQ(Var(c.evaluation, "r"), system ? "no" : "<unknown>");
  }
}

// A Find module a config ships runs with the CMAKE_MODULE_PATH its find_package() had: Qt's
// FindWrapOpenXR.cmake includes QtFindWrapHelper from there, and reports WrapOpenXR not
// found when the wrapped package is found nowhere; the config that requires it then fails at
// configure, as CMake fails Qt6Quick3DXr in a Debian 13 root without OpenXR.
TEST_F(CMakeSemantics, AShippedFindModuleRunsWithItsCallersModulePath) {
  Write("prefix/lib/cmake/Xr/modules/WrapHelper.cmake",
        "macro(wrap_or_fail name)\n  find_package(NoSuchPackageAnywhere QUIET)\n"
        "  set(${name}_FOUND ${NoSuchPackageAnywhere_FOUND})\nendmacro()\n");
  Write("prefix/lib/cmake/Xr/modules/FindWrap.cmake", "include(WrapHelper)\nwrap_or_fail(Wrap)\n");
  CMakePackage xr{.name = "Xr",
                  .config = Config("Xr",
                                   "include(CMakeFindDependencyMacro)\n"
                                   "list(APPEND CMAKE_MODULE_PATH ${CMAKE_CURRENT_LIST_DIR}/modules)\n"
                                   "find_dependency(Wrap)\nadd_library(Xr::xr INTERFACE IMPORTED)\n")};
  EvaluateTogether({&xr}, true);
  ASSERT_EQ(xr.dependencies.size(), 1u);
  EXPECT_EQ(xr.dependencies[0].found, (dir_ / "prefix/lib/cmake/Xr/modules/FindWrap.cmake").string());
  EXPECT_EQ(Var(xr.evaluation, "Xr_FOUND"), "False");
  EXPECT_TRUE(xr.evaluation.targets.empty());
}

// find_package() defines <Name>_FIND_COMPONENTS, empty, when it asks for none (cmake 3.25
// prints "defined []" for it). Drogon's FindFilesystem defaults to its Final component when
// `Filesystem_FIND_COMPONENTS STREQUAL ""`, which the name of an unset variable is not: left
// unset, it found no component and failed Drogon.
TEST_F(CMakeSemantics, NoComponentsAskedIsAnEmptyListOfThem) {
  Write("prefix/lib/cmake/Dr/modules/FindFs.cmake",
        "if(DEFINED Fs_FIND_COMPONENTS AND Fs_FIND_COMPONENTS STREQUAL \"\")\n  set(want Final)\nendif()\n"
        "if(\"Final\" IN_LIST want)\n  set(Fs_FOUND TRUE)\nelse()\n  set(Fs_FOUND FALSE)\nendif()\n");
  CMakePackage dr{.name = "Dr",
                  .config = Config("Dr",
                                   "include(CMakeFindDependencyMacro)\n"
                                   "list(APPEND CMAKE_MODULE_PATH ${CMAKE_CURRENT_LIST_DIR}/modules)\n"
                                   "find_dependency(Fs)\nadd_library(Dr::dr INTERFACE IMPORTED)\n")};
  EvaluateTogether({&dr}, true);
  EXPECT_EQ(Var(dr.evaluation, "Dr_FOUND"), "<undefined>");
  EXPECT_EQ(dr.evaluation.targets.size(), 1u);
}

// The consumer is a plain project(): C and C++ are enabled, no other language until the
// config enables one. adios2's config requires a component per enabled language and fails
// without its C bindings' Targets file, as cmake fails it; with CMAKE_<LANG>_COMPILER_LOADED
// unknown its component list, and so its verdict, was undecided.
TEST_F(CMakeSemantics, TheConsumerEnablesCAndCxxOnly) {
  CMakePackage p =
      EvaluatePackage("Langs",
                      Config("Langs",
                             "foreach(lang C CXX Fortran HIP)\n"
                             "  if(CMAKE_${lang}_COMPILER_LOADED)\n"
                             "    list(APPEND langs ${lang})\n  endif()\nendforeach()\n"
                             "enable_language(Fortran)\n"
                             "if(CMAKE_Fortran_COMPILER_LOADED)\n  set(fortran_after 1)\nendif()\n"),
                      files_);
  EXPECT_EQ(Var(p.evaluation, "langs"), "C;CXX");
  EXPECT_EQ(Var(p.evaluation, "fortran_after"), "1");
  EXPECT_EQ(Var(p.evaluation, "CMAKE_C_COMPILER"), "<unknown>");
}

// What a Targets file CMake generates does before it defines its own targets: it checks for
// the targets of other export sets it links (`target`), and sets <Name>_FOUND false with
// "referenced, but are missing" when one is not defined.
std::string ChecksOtherExportSets(const std::string& target) {
  return "foreach(_target \"" + target +
         "\")\n  if(NOT TARGET \"${_target}\")\n"
         "    set(${CMAKE_FIND_PACKAGE_NAME}_NOT_FOUND_MESSAGE_targets "
         "\"${${CMAKE_FIND_PACKAGE_NAME}_NOT_FOUND_MESSAGE_targets} ${_target}\")\n  endif()\nendforeach()\n"
         "if(DEFINED ${CMAKE_FIND_PACKAGE_NAME}_NOT_FOUND_MESSAGE_targets)\n"
         "  set(${CMAKE_FIND_PACKAGE_NAME}_FOUND FALSE)\n"
         "  set(${CMAKE_FIND_PACKAGE_NAME}_NOT_FOUND_MESSAGE \"The following imported targets are "
         "referenced, "
         "but are missing: ${${CMAKE_FIND_PACKAGE_NAME}_NOT_FOUND_MESSAGE_targets}\")\nendif()\n";
}

// A generated Targets file that tests for another export set's targets before its config
// finds their package fails alone, but not after a caller found that package first: CMake's
// target table is the whole project's. KPim6KSieveUi finds KPim6KSieve, then
// KPim6KSieveCore, whose Targets file tests KPim6::KSieve before its own find_dependency().
TEST_F(CMakeSemantics, ATargetsFileSeesWhatItsCallerFoundBefore) {
  Config("Sieve", "add_library(Sieve::sieve INTERFACE IMPORTED)\n");
  const std::string targets =
      ChecksOtherExportSets("Sieve::sieve") + "add_library(Core::core INTERFACE IMPORTED)\n";
  Write("prefix/lib/cmake/Core/CoreTargets.cmake", targets);
  CMakePackage core{
      .name = "Core",
      .config = Config("Core",
                       "include(CMakeFindDependencyMacro)\n"
                       "include(${CMAKE_CURRENT_LIST_DIR}/CoreTargets.cmake)\nfind_dependency(Sieve)\n")};
  auto caller = [&](const std::string& name, const std::string& first) {
    return CMakePackage{.name = name,
                        .config = Config(name, "include(CMakeFindDependencyMacro)\n" + first +
                                                   "find_dependency(Core)\nadd_library(" + name +
                                                   "::x INTERFACE IMPORTED)\n")};
  };
  CMakePackage ui = caller("Ui", "find_dependency(Sieve)\n");
  CMakePackage late = caller("Late", "");
  EvaluateTogether({&core, &ui, &late});
  EXPECT_EQ(Var(core.evaluation, "Core_FOUND"), "FALSE");
  EXPECT_EQ(Var(ui.evaluation, "Core_FOUND"), "1");
  EXPECT_EQ(Var(ui.evaluation, "Core_NOT_FOUND_MESSAGE"), "<undefined>");
  EXPECT_EQ(ui.evaluation.targets.size(), 1u);
  EXPECT_EQ(Var(late.evaluation, "Late_FOUND"), "False");
  EXPECT_TRUE(late.evaluation.targets.empty());
}

// SuiteSparse's CHOLMOD finds AMD unless SuiteSparse::AMD exists, then tests AMD_FOUND. In
// CMake a caller that found AMD first has both; the config found apart already finds AMD, so
// it is not evaluated again with the caller's target alone (it would skip the find and read
// AMD_FOUND unset).
TEST_F(CMakeSemantics, AFindGuardedByADependencysTargetStillSetsItsVariables) {
  Config("Amd", "add_library(SS::amd INTERFACE IMPORTED)\n");
  CMakePackage chol{.name = "Chol",
                    .config = Config("Chol",
                                     "include(CMakeFindDependencyMacro)\n"
                                     "if(NOT TARGET SS::amd)\n  find_dependency(Amd)\nendif()\n"
                                     "if(NOT Amd_FOUND)\n  set(Chol_FOUND FALSE)\n  return()\nendif()\n"
                                     "add_library(SS::chol INTERFACE IMPORTED)\n")};
  CMakePackage user{.name = "User",
                    .config = Config("User",
                                     "include(CMakeFindDependencyMacro)\nfind_dependency(Amd)\n"
                                     "find_dependency(Chol)\nadd_library(User::x INTERFACE IMPORTED)\n")};
  EvaluateTogether({&chol, &user});
  EXPECT_EQ(Var(chol.evaluation, "Chol_FOUND"), "<undefined>");
  EXPECT_EQ(Var(user.evaluation, "Chol_FOUND"), "1");
  EXPECT_EQ(user.evaluation.targets.size(), 1u);
}

// A config runs in its caller's scope: a dependency that tests a variable its caller set is
// evaluated with the caller's value (adios2's config includes its MPI build when MPI_FOUND,
// which DOLFINX found before it, and only the MPI build is installed; RocksDB sets
// GFLAGS_USE_TARGET_NAMESPACE ON, which gflags' config defaults to FALSE). Not given: a
// variable the config leaves set to the caller's value (a guard of what it does anyway), and
// CMake's own variables (mrpt's configs append themselves to CMAKE_PREFIX_PATH), so that
// callers that differ only there share one evaluation.
TEST_F(CMakeSemantics, ADependencyReadsTheVariablesItsCallerSet) {
  Write("prefix/lib/cmake/Ad/mpi/AdMpi.cmake", "add_library(Ad::ad INTERFACE IMPORTED)\n");
  Config("Ad",
         "if(WANT_MPI AND EXISTS \"${CMAKE_CURRENT_LIST_DIR}/mpi/AdMpi.cmake\")\n"
         "  include(\"${CMAKE_CURRENT_LIST_DIR}/mpi/AdMpi.cmake\")\nelse()\n"
         "  include(\"${CMAKE_CURRENT_LIST_DIR}/serial/AdSerial.cmake\")\nendif()\n"
         "if(NOT DEFINED AD_NAMESPACE)\n  set(AD_NAMESPACE FALSE)\nendif()\n"
         "if(AD_NAMESPACE)\n  add_library(Ad::ns INTERFACE IMPORTED)\nendif()\n"
         "if(NOT AD_LOADED)\n  set(AD_LOADED 1)\nendif()\n"
         "if(NOT \"${CMAKE_CURRENT_LIST_DIR}\" IN_LIST CMAKE_PREFIX_PATH)\n"
         "  list(APPEND CMAKE_PREFIX_PATH \"${CMAKE_CURRENT_LIST_DIR}\")\nendif()\n");
  auto caller = [&](const std::string& name, const std::string& first) {
    return CMakePackage{
        .name = name,
        .config = Config(name, "include(CMakeFindDependencyMacro)\n" + first +
                                   "find_dependency(Ad)\nadd_library(" + name + "::x INTERFACE IMPORTED)\n")};
  };
  CMakePackage mpi = caller("Dol", "set(WANT_MPI 1)\nset(AD_LOADED 1)\nset(CMAKE_PREFIX_PATH a)\n");
  CMakePackage other = caller("Dol2", "set(WANT_MPI 1)\nset(AD_LOADED 1)\nset(CMAKE_PREFIX_PATH b)\n");
  CMakePackage ns = caller("Rocks", "set(WANT_MPI 1)\nset(AD_NAMESPACE ON)\n");
  CMakePackage plain = caller("Plain", "set(AD_LOADED 1)\n");
  EvaluateTogether({&mpi, &other, &ns, &plain});
  auto given = [](const CMakePackage& p) {
    std::string out;
    for (const auto& [name, value] : p.evaluation.dependencies.at(0).caller_variables)
      out += name + "=" + value.text + " ";
    return out;
  };
  for (const CMakePackage* p : {&mpi, &other, &ns}) {
    EXPECT_EQ(p->evaluation.targets.size(), 1u) << p->name;
    EXPECT_TRUE(p->evaluation.failures.empty()) << p->name;
    ASSERT_EQ(p->evaluation.dependencies.size(), 1u) << p->name;
  }
  EXPECT_EQ(given(mpi), "WANT_MPI=1 ");
  EXPECT_EQ(given(other), "WANT_MPI=1 ");
  EXPECT_EQ(given(ns), "AD_NAMESPACE=ON WANT_MPI=1 ");
  ASSERT_EQ(ns.dependencies.size(), 1u);
  EXPECT_EQ(ns.dependencies[0].targets.count("Ad::ns"), 1u);
  EXPECT_EQ(mpi.dependencies.at(0).targets.count("Ad::ns"), 0u);
  ASSERT_EQ(plain.evaluation.dependencies.size(), 1u);
  EXPECT_EQ(given(plain), "");
}

// CMake's target table is the consumer's: a dependency found through another sees the
// targets the top caller's earlier find_package() calls defined. ignition-physics5-all finds
// its tpelib component, then tpe-plugin, which finds tpe, whose Targets file checks for the
// tpelib target of another export set: CMake configures it; alone, tpe-plugin fails. Not
// given: a target the dependency defines itself (Own's config adds Own::own unless it
// exists), which a caller that found it before has, but the dependency's own evaluation
// still defines.
TEST_F(CMakeSemantics, ADependencySeesTheTargetsItsCallersDefinedBefore) {
  Config("Lib", "add_library(Ns::lib INTERFACE IMPORTED)\n");
  Write("prefix/lib/cmake/Tpe/TpeTargets.cmake",
        ChecksOtherExportSets("Ns::lib") + "add_library(Ns::tpe INTERFACE IMPORTED)\n");
  Config("Tpe", "include(${CMAKE_CURRENT_LIST_DIR}/TpeTargets.cmake)\n");
  Config("Own", "if(NOT TARGET Own::own)\n  add_library(Own::own INTERFACE IMPORTED)\nendif()\n");
  CMakePackage plugin{.name = "Plugin",
                      .config = Config("Plugin",
                                       "find_package(Tpe REQUIRED)\n"
                                       "add_library(Ns::plugin INTERFACE IMPORTED)\n"
                                       "set_target_properties(Ns::plugin PROPERTIES INTERFACE_LINK_LIBRARIES "
                                       "Ns::tpe)\n")};
  CMakePackage all{.name = "All",
                   .config = Config("All",
                                    "find_package(Lib REQUIRED)\nfind_package(Own REQUIRED)\n"
                                    "find_package(Plugin REQUIRED)\nfind_package(Own REQUIRED)\n"
                                    "add_library(Ns::all INTERFACE IMPORTED)\n"
                                    "set_target_properties(Ns::all PROPERTIES INTERFACE_LINK_LIBRARIES "
                                    "\"Ns::plugin;Own::own\")\n")};
  EvaluateTogether({&plugin, &all});
  EXPECT_FALSE(plugin.evaluation.failures.empty());
  EXPECT_TRUE(all.evaluation.failures.empty());
  EXPECT_EQ(all.evaluation.targets.size(), 1u);
  std::map<std::string, std::string> given;
  for (const CMakeDependency& d : all.evaluation.dependencies)
    given[d.name] += JoinList(d.caller_targets) + "|";
  EXPECT_EQ(given["Plugin"], "Ns::lib|");
  EXPECT_EQ(given["Own"], "||");
  ASSERT_EQ(all.dependencies.size(), 4u);
  EXPECT_EQ(all.dependencies[2].request.name, "Plugin");
  EXPECT_EQ(all.dependencies[2].targets.count("Ns::tpe"), 1u);
  EXPECT_EQ(all.dependencies[3].targets.count("Own::own"), 1u);
}

// A shipped Find module that handles components (ECM's FindXCB) fails the find_dependency()
// that asks for one it does not find: Qt6XcbQpaPrivate asks XCB for ICCCM, and in a world
// without libxcb-icccm both CMake and rocm-audit fail it at configure. A component asked for
// as optional does not.
TEST_F(CMakeSemantics, AShippedFindModuleFailsOnARequiredComponentItLacks) {
  Write("prefix/lib/cmake/Xc/modules/FindXcb.cmake",
        "include(FindPackageHandleStandardArgs)\nset(Xcb_LIBRARIES x)\n"
        "foreach(c ${Xcb_FIND_COMPONENTS})\n  find_library(Xcb_${c}_LIBRARY no-such-${c})\n"
        "  if(Xcb_${c}_LIBRARY)\n    set(Xcb_${c}_FOUND TRUE)\n  endif()\nendforeach()\n"
        "find_package_handle_standard_args(Xcb REQUIRED_VARS Xcb_LIBRARIES HANDLE_COMPONENTS)\n");
  auto config = [&](const std::string& name, const std::string& ask) {
    return Config(name,
                  "include(CMakeFindDependencyMacro)\n"
                  "list(APPEND CMAKE_MODULE_PATH " +
                      (dir_ / "prefix/lib/cmake/Xc/modules").string() +
                      ")\n"
                      "find_dependency(Xcb " +
                      ask + ")\nadd_library(" + name + "::x INTERFACE IMPORTED)\n");
  };
  CMakePackage required{.name = "Req", .config = config("Req", "COMPONENTS icccm")};
  CMakePackage optional{.name = "Opt", .config = config("Opt", "OPTIONAL_COMPONENTS icccm")};
  EvaluateTogether({&required, &optional}, true);
  EXPECT_EQ(Var(required.evaluation, "Req_FOUND"), "False");
  EXPECT_TRUE(required.evaluation.targets.empty());
  EXPECT_EQ(Var(optional.evaluation, "Xcb_FOUND"), "1");
  EXPECT_EQ(optional.evaluation.targets.size(), 1u);
}

// if(TARGET) sees what the find_package() calls that ran before it defined, not what the
// config finds later. KF5Codecs 5.103 asks for Qt6Core5Compat only if(TARGET Qt6::Core),
// after finding Qt5Core alone: with cmake 3.25.1 the test is false and Qt6Core5Compat is
// never loaded, so its defects are not KF5Codecs's. A target a later call defines exists
// from that call on.
TEST_F(CMakeSemantics, IfTargetSeesOnlyTheDependenciesFoundSoFar) {
  Config("Core", "add_library(Core::core INTERFACE IMPORTED)\n");
  Config("Compat", "add_library(Compat::compat INTERFACE IMPORTED)\n");
  Config("Late", "add_library(Late::late INTERFACE IMPORTED)\n");
  CMakePackage codecs{.name = "Codecs",
                      .config = Config("Codecs",
                                       "include(CMakeFindDependencyMacro)\n"
                                       "find_dependency(Core)\n"
                                       "if(TARGET Compat::compat)\n  find_dependency(Compat)\nendif()\n"
                                       "if(TARGET Late::late)\n  set(before yes)\nelse()\n"
                                       "  set(before no)\nendif()\n"
                                       "find_dependency(Late)\n"
                                       "if(TARGET Late::late)\n  set(after yes)\nendif()\n")};
  EvaluateTogether({&codecs});
  std::vector<std::string> found;
  for (const LocatedDependency& l : codecs.dependencies) found.push_back(l.request.name);
  EXPECT_EQ(found, (std::vector<std::string>{"Core", "Late"}));
  EXPECT_EQ(Var(codecs.evaluation, "before"), "no");
  EXPECT_EQ(Var(codecs.evaluation, "after"), "yes");
}

// HINTS and PATHS entries are collapsed as find_package() and find_library() collapse them
// (cmSearchPath::AddUserPath): Qt's modules each name ${CMAKE_CURRENT_LIST_DIR}/.., one
// directory, whose listing is then read once for all of them.
TEST_F(CMakeSemantics, HintsAndPathsAreTheDirectoriesTheyName) {
  const std::string prefix = (dir_ / "prefix").string();
  Config("Dep", "add_library(Dep::dep INTERFACE IMPORTED)\n");
  CMakePackage pkg{.name = "Pkg",
                   .config = Config("Pkg",
                                    "find_package(Dep CONFIG HINTS ${CMAKE_CURRENT_LIST_DIR}/../../.. "
                                    "PATHS ${CMAKE_CURRENT_LIST_DIR}/./../Dep/.. relative/..)\n")};
  EvaluateTogether({&pkg});
  ASSERT_EQ(pkg.dependencies.size(), 1u);
  const CMakeDependency& d = pkg.dependencies[0].request;
  EXPECT_EQ(d.hints, std::vector<std::string>{prefix});
  EXPECT_EQ(d.paths, (std::vector<std::string>{prefix + "/lib/cmake", "relative/.."}));
  EXPECT_EQ(pkg.dependencies[0].found, (dir_ / "prefix/lib/cmake/Dep/DepConfig.cmake").string());
}

// The commands a package leaves its consumers are its dependencies' and its own; a package
// that defines none of its own keeps its dependency's map rather than a copy (each of Qt6's
// modules ends with Qt6's hundreds of functions).
TEST_F(CMakeSemantics, APackageThatDefinesNoCommandsSharesItsDependencysMap) {
  auto [mid, top] = ThreeLevels("function(base_f)\nendfunction()\n", "macro(top_m)\nendmacro()\n");
  ASSERT_TRUE(mid.evaluation.definitions);
  ASSERT_EQ(mid.dependencies.size(), 1u);
  EXPECT_EQ(mid.evaluation.definitions, mid.dependencies[0].definitions);
  EXPECT_EQ(mid.evaluation.definitions->size(), 1u);
  ASSERT_TRUE(top.evaluation.definitions);
  EXPECT_NE(top.evaluation.definitions, mid.evaluation.definitions);
  std::vector<std::string> names;
  for (const auto& [name, d] : *top.evaluation.definitions) names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{"base_f", "top_m"}));
}

// The names of the targets a found package brings are one set, shared by every package that
// finds it: a package that defines no targets of its own brings its dependency's set, not a
// copy (every Qt6 module kept the hundreds of names below Qt6Core again).
TEST_F(CMakeSemantics, APackageThatDefinesNoTargetsBringsItsDependencysNames) {
  auto [mid, top] =
      ThreeLevels("add_library(Base::b INTERFACE IMPORTED)\n", "add_library(Top::t INTERFACE IMPORTED)\n");
  ASSERT_EQ(mid.dependencies.size(), 1u);
  ASSERT_EQ(top.dependencies.size(), 1u);
  EXPECT_EQ(top.dependencies[0].targets.set(), std::set<std::string>{"Base::b"});
  EXPECT_TRUE(top.dependencies[0].targets_known);
  EXPECT_EQ(&top.dependencies[0].targets.set(), &mid.dependencies[0].targets.set());
}

}  // namespace
}  // namespace rocm_audit
