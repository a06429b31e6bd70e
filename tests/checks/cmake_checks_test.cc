// The CMake checks on packages exported and installed by the real cmake, then broken
// (fixtures/make_cmake_tree.sh): each broken copy gives exactly the finding it was made for.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "tests/support/audit_support.h"
#include "tests/support/test_support.h"

namespace rocm_audit {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

using testing::AuditWith;
using testing::FindingsOf;

std::string Tree(const std::string& name) { return std::string(ROCM_AUDIT_CMAKE_TREE) + "/" + name; }

Report AuditPackage(const std::string& name, bool relocatable = false) {
  AuditRequest o;
  o.paths = {Tree(name)};
  o.ld_so_conf = "";
  o.checks.relocatable = relocatable;
  return AuditWith(o);
}

// The package configs in t/root/usr/lib/cmake/P audited with t/root as the installed system.
Report AuditInRoot(const testing::TempDir& t) {
  AuditRequest o;
  o.paths = {t / "root/usr/lib/cmake/P"};
  o.roots = {t / "root"};
  o.ld_so_conf = "";
  return AuditWith(o);
}

std::vector<Finding> Errors(const Report& r, const std::string& check) {
  std::vector<Finding> out;
  for (Finding& f : FindingsOf(r, check))
    if (f.severity == Severity::kError) out.push_back(std::move(f));
  return out;
}

TEST(CMakeChecks, CleanExportHasNoErrorAndItsFacts) {
  Report r = AuditPackage("widget-ok");
  EXPECT_TRUE(Errors(r, "cmake-missing-file").empty());
  EXPECT_TRUE(Errors(r, "cmake-config-error").empty());
  EXPECT_TRUE(FindingsOf(r, "cmake-missing-dependency").empty());
  EXPECT_TRUE(FindingsOf(r, "cmake-absolute-path").empty());
  const FileFacts* facts = testing::FactsOf(r, Tree("widget-ok/lib/cmake/Widget/WidgetConfig.cmake"));
  ASSERT_NE(facts, nullptr);
  ASSERT_TRUE(facts->cmake);
  EXPECT_EQ(facts->cmake->package, "Widget");
  EXPECT_EQ(facts->cmake->version, "1.2.3");
  ASSERT_EQ(facts->cmake->targets.size(), 2u);
  EXPECT_EQ(facts->cmake->targets[0].name, "widget::widget");
  EXPECT_EQ(facts->cmake->targets[0].type, "SHARED");
  EXPECT_EQ(facts->cmake->targets[0].locations,
            std::vector<std::string>{Tree("widget-ok/lib/libwidget.so.1.2.3")});
  EXPECT_EQ(facts->cmake->targets[0].include_dirs,
            std::vector<std::string>{Tree("widget-ok/include/widget")});
  ASSERT_EQ(facts->cmake->dependencies.size(), 1u);
  EXPECT_EQ(facts->cmake->dependencies[0].name, "Threads");
}

TEST(CMakeChecks, TheOptionalIncludeIsFineAndTheUndecidedOneIsANote) {
  Report r = AuditPackage("widget-ok");
  for (const Finding& f : FindingsOf(r, "cmake-missing-file")) {
    EXPECT_EQ(f.fields["referenced"], Tree("widget-ok/lib/cmake/Widget/WidgetLegacy.cmake"));
    EXPECT_EQ(f.severity, Severity::kNote);
    EXPECT_THAT(f.message, HasSubstr("execute_process"));
  }
  EXPECT_EQ(FindingsOf(r, "cmake-missing-file").size(), 1u);
  // What left the include undecided: the one command recorded and not run.
  std::vector<Finding> skipped = FindingsOf(r, "cmake-not-evaluated");
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_EQ(skipped[0].fields["package"], "Widget");
  ASSERT_EQ(skipped[0].fields["commands"].size(), 1u);
  EXPECT_EQ(skipped[0].fields["commands"][0]["command"], "execute_process");
}

TEST(CMakeChecks, DeletedTargetsFileLibraryAndIncludeDir) {
  struct Case {
    const char* tree;
    const char* referenced;
    const char* via;
  } cases[] = {
      {"widget-no-targets", "widget-no-targets/lib/cmake/Widget/WidgetTargets.cmake", "include"},
      {"widget-no-library", "widget-no-library/lib/libwidget.so.1.2.3", "IMPORTED_LOCATION_NOCONFIG"},
      {"widget-no-includedir", "widget-no-includedir/include/widget", "set_and_check"},
  };
  for (const Case& c : cases) {
    std::vector<Finding> e = Errors(AuditPackage(c.tree), "cmake-missing-file");
    ASSERT_EQ(e.size(), 1u) << c.tree;
    EXPECT_EQ(e[0].fields["referenced"], Tree(c.referenced)) << c.tree;
    EXPECT_EQ(e[0].fields["via"], c.via) << c.tree;
    EXPECT_GT(e[0].fields["line"].get<int>(), 0);
  }
}

TEST(CMakeChecks, AMissingSonameLinkIsAWarningCMakeDoesNotCatch) {
  Report r = AuditPackage("widget-no-soname");
  EXPECT_TRUE(Errors(r, "cmake-missing-file").empty());
  bool found = false;
  for (const Finding& f : FindingsOf(r, "cmake-missing-file"))
    if (f.fields["via"] == "IMPORTED_SONAME_NOCONFIG") {
      found = true;
      EXPECT_EQ(f.severity, Severity::kWarning);
      EXPECT_EQ(f.fields["referenced"], Tree("widget-no-soname/lib/libwidget.so.1"));
    }
  EXPECT_TRUE(found);
}

TEST(CMakeChecks, ComposableKernelComponentTargetsFile) {
  EXPECT_TRUE(Errors(AuditPackage("ck-ok"), "cmake-missing-file").empty());
  std::vector<Finding> e = Errors(AuditPackage("ck-no-conv"), "cmake-missing-file");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].fields["component"], "device_conv_operations");
  EXPECT_TRUE(e[0].fields["component_library"].is_null());
  EXPECT_EQ(
      e[0].fields["referenced"],
      Tree("ck-no-conv/lib/cmake/composable_kernel/composable_kerneldevice_conv_operationsTargets.cmake"));
}

TEST(CMakeChecks, DependenciesAndAbsolutePaths) {
  std::vector<Finding> dep = FindingsOf(AuditPackage("widget-missing-dep"), "cmake-missing-dependency");
  ASSERT_EQ(dep.size(), 1u);
  EXPECT_EQ(dep[0].severity, Severity::kWarning);
  EXPECT_EQ(dep[0].fields["dependency"], "NoSuchPackageAnywhere");
  // Found once --cmake-prefix-path names a prefix that has its config.
  std::string prefix = ::testing::TempDir() + "/rocm-audit-dep-" + std::to_string(getpid());
  std::filesystem::create_directories(prefix + "/lib/cmake/nosuchpackageanywhere");
  std::ofstream(prefix + "/lib/cmake/nosuchpackageanywhere/NoSuchPackageAnywhereConfig.cmake") << "\n";
  AuditRequest o;
  o.paths = {Tree("widget-missing-dep")};
  o.ld_so_conf = "";
  o.cmake_prefix_path = {prefix};
  EXPECT_TRUE(FindingsOf(AuditWith(o), "cmake-missing-dependency").empty());
  std::filesystem::remove_all(prefix);

  std::vector<Finding> abs = FindingsOf(AuditPackage("widget-abs-include"), "cmake-absolute-path");
  ASSERT_EQ(abs.size(), 1u);
  EXPECT_EQ(abs[0].fields["referenced"], "/usr/include");
  EXPECT_TRUE(FindingsOf(AuditPackage("widget-ok"), "cmake-absolute-path").empty());
  // Under --relocatable, nothing outside the prefix is fine, not even the host's.
  abs = FindingsOf(AuditPackage("widget-abs-include", true), "cmake-absolute-path");
  ASSERT_EQ(abs.size(), 1u);
  EXPECT_EQ(abs[0].fields["referenced"], "/usr/include");
}

TEST(CMakeChecks, RocmStyleHardCodedIncludeDirectory) {
  Report r = AuditPackage("rocm-style");
  std::vector<Finding> e = Errors(r, "cmake-missing-file");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].fields["referenced"], "/opt/include");  // "/opt/rocm/../include", folded
  EXPECT_EQ(e[0].fields["via"], "INTERFACE_INCLUDE_DIRECTORIES");
  EXPECT_EQ(e[0].fields["target"], "roc::rocfoo");
}

TEST(CMakeChecks, AComponentIncludedOnlyWhenAskedForIsEvaluatedAsAskedFor) {
  // composable_kernel's own Config: nothing is missing for a consumer that asks for nothing.
  Report ok = AuditPackage("ck-asked-ok");
  EXPECT_TRUE(Errors(ok, "cmake-missing-file").empty());
  const FileFacts* facts =
      testing::FactsOf(ok, Tree("ck-asked-ok/lib/cmake/composable_kernel/composable_kernelConfig.cmake"));
  ASSERT_TRUE(facts && facts->cmake);
  EXPECT_EQ(facts->cmake->components,
            (std::vector<std::string>{"utility", "device_gemm_operations", "device_conv_operations"}));
  std::vector<Finding> e = Errors(AuditPackage("ck-asked-no-conv"), "cmake-missing-file");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].fields["asked_component"], "device_conv_operations");
  EXPECT_EQ(e[0].fields["component"], "device_conv_operations");
  EXPECT_EQ(e[0].fields["cmake_stage"], "configure");
  // Where every supported component is included by default, the plain consumer fails: the
  // finding is not one of a component asked for.
  std::vector<Finding> by_default = Errors(AuditPackage("ck-no-conv"), "cmake-missing-file");
  ASSERT_EQ(by_default.size(), 1u);
  EXPECT_FALSE(by_default[0].fields.contains("asked_component"));
}

TEST(CMakeChecks, FoundSetFalseNamesTheFileItDidNotFind) {
  EXPECT_TRUE(Errors(AuditPackage("widget-found-false-ok"), "cmake-config-error").empty());
  std::vector<Finding> e = Errors(AuditPackage("widget-found-false"), "cmake-config-error");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_THAT(e[0].message, HasSubstr("Widget_FOUND to FALSE"));
  ASSERT_TRUE(e[0].fields.contains("missing_files"));
  // WidgetExtras.cmake, also included OPTIONAL and also missing, is not what the Config tested.
  EXPECT_EQ(e[0].fields["missing_files"],
            nlohmann::ordered_json::array({Tree("widget-found-false/lib/cmake/Widget/WidgetTargets.cmake")}));
  EXPECT_GT(e[0].fields["line"].get<int>(), 0);  // the include that found nothing
}

TEST(CMakeChecks, AConfigFoundThroughASymlinkedDirectoryComputesTheLinksPrefix) {
  // lib/cmake/Widget -> ../../opt/widget/lib/cmake/Widget: find_package() finds the config
  // through the link, and the Config's PACKAGE_PREFIX_DIR is the link's prefix, which has no
  // include/widget.
  std::vector<Finding> e = Errors(AuditPackage("widget-linked-config"), "cmake-missing-file");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].fields["referenced"], Tree("widget-linked-config/include/widget"));
  EXPECT_EQ(e[0].fields["via"], "set_and_check");
  // With lib/ and include/ linked, the link's prefix has everything.
  Report ok = AuditPackage("widget-linked-lib-ok");
  EXPECT_TRUE(Errors(ok, "cmake-missing-file").empty());
  EXPECT_TRUE(Errors(ok, "cmake-config-error").empty());
}

TEST(CMakeChecks, AStagedTreeIsBothMissingAndNotRelocatable) {
  Report r = AuditPackage("widget-staged");
  std::vector<Finding> missing = Errors(r, "cmake-missing-file");
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0].fields["referenced"], "/widget-staged/include");
  std::vector<Finding> abs = FindingsOf(r, "cmake-absolute-path");
  ASSERT_EQ(abs.size(), 1u);
  EXPECT_EQ(abs[0].fields["referenced"], "/widget-staged/include");
  EXPECT_EQ(abs[0].fields["prefix"], Tree("widget-staged"));
  EXPECT_THAT(abs[0].message, HasSubstr("built for /widget-staged"));
  // The paths of this machine it names are data; the prefix it was built for is a word.
  std::vector<std::string> named;
  for (const TextPath& p : abs[0].message_paths) named.push_back(abs[0].message.substr(p.offset, p.size));
  EXPECT_THAT(named, ElementsAre("/widget-staged/include", Tree("widget-staged"), Tree("widget-staged"),
                                 Tree("widget-staged/include")));
}

// composable_kernel's own Config with find_dependency() inside if(device_conv_operations
// IN_LIST ${CMAKE_FIND_PACKAGE_NAME}_FIND_COMPONENTS): real cmake configures a plain consumer
// and fails only the one that asks for device_conv_operations (CMakeAgreement checks both).
TEST(CMakeChecks, ADependencyOnlyAComponentAsksForNamesTheComponent) {
  auto cmake_errors = [](const Report& r) {
    std::vector<std::string> out;
    for (const Finding& f : r.findings)
      if (f.check.starts_with("cmake-") && f.severity == Severity::kError) out.push_back(f.message);
    return out;
  };
  Report missing = AuditPackage("ck-asked-dep-missing");
  std::vector<Finding> m = FindingsOf(missing, "cmake-missing-dependency");
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].severity, Severity::kWarning);
  EXPECT_EQ(m[0].fields["dependency"], "NoSuchPackageAnywhere");
  EXPECT_EQ(m[0].fields["asked_component"], "device_conv_operations");
  EXPECT_EQ(m[0].fields["cmake_stage"], "configure");
  EXPECT_GT(m[0].fields["line"].get<int>(), 0);
  EXPECT_TRUE(cmake_errors(missing).empty());

  Report version = AuditPackage("ck-asked-dep-version");
  std::vector<Finding> v = Errors(version, "cmake-dependency-version");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].fields["dependency"], "Gadget");
  EXPECT_EQ(v[0].fields["version"], "2.0");
  EXPECT_EQ(v[0].fields["asked_component"], "device_conv_operations");
  ASSERT_EQ(v[0].fields["considered"].size(), 1u);
  EXPECT_THAT(v[0].fields["considered"][0].get<std::string>(), HasSubstr("version: 1.4.0"));
  EXPECT_TRUE(FindingsOf(version, "cmake-missing-dependency").empty());
  EXPECT_EQ(cmake_errors(version).size(), 1u);

  // Gadget 1.1 is accepted: nothing fails, and the dependency is found.
  Report ok = AuditPackage("ck-asked-dep-ok");
  EXPECT_TRUE(cmake_errors(ok).empty());
  EXPECT_TRUE(FindingsOf(ok, "cmake-missing-dependency").empty());
  const FileFacts* facts =
      testing::FactsOf(ok, Tree("ck-asked-dep-ok/lib/cmake/composable_kernel/composable_kernelConfig.cmake"));
  ASSERT_TRUE(facts && facts->cmake);
  ASSERT_EQ(facts->cmake->dependencies.size(), 1u);
  EXPECT_EQ(facts->cmake->dependencies[0].name, "Gadget");
  EXPECT_EQ(facts->cmake->dependencies[0].found, Tree("ck-asked-dep-ok/lib/cmake/Gadget/GadgetConfig.cmake"));
}

// widget::widget links Gadget::gadget, which nothing defines, and only a consumer that asks
// for extras asks for NoSuchPackageAnywhere. Real cmake fails the plain consumer at generate
// on the link interface and the one that asks for extras at configure: the dependency that
// fails only the second must not hide the first's missing target.
TEST(CMakeChecks, ADependencyOnlyAComponentMissesHidesNoMissingTargetOfThePlainConsumer) {
  Report r = AuditPackage("widget-asked-dep-link-missing");
  std::vector<Finding> dep = FindingsOf(r, "cmake-missing-dependency");
  ASSERT_EQ(dep.size(), 1u);
  EXPECT_EQ(dep[0].fields["dependency"], "NoSuchPackageAnywhere");
  EXPECT_EQ(dep[0].fields["asked_component"], "extras");
  std::vector<Finding> t = Errors(r, "cmake-missing-target");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].fields["target"], "widget::widget");
  EXPECT_EQ(t[0].fields["linked"], "Gadget::gadget");
  EXPECT_EQ(t[0].fields["cmake_stage"], "generate");
  EXPECT_FALSE(t[0].fields.contains("asked_component"));
}

// Only a consumer that asks for extras looks for the dependency; the plain consumer never
// does, so the dependency neither defines a target for it nor makes its namespace
// uncertain. Real cmake fails the plain consumer of both at generate ("links to target
// ... but the target was not found").
TEST(CMakeChecks, ATargetOnlyAComponentsDependencyDefinesIsMissingForThePlainConsumer) {
  for (const char* tree : {"widget-asked-dep-namespace", "widget-asked-dep-link-found"}) {
    Report r = AuditPackage(tree);
    std::vector<Finding> t = Errors(r, "cmake-missing-target");
    ASSERT_EQ(t.size(), 1u) << tree;
    EXPECT_EQ(t[0].fields["target"], "widget::widget") << tree;
    EXPECT_EQ(t[0].fields["cmake_stage"], "generate") << tree;
    EXPECT_FALSE(t[0].fields.contains("asked_component")) << tree;
    // The dependencies the plain consumer has: the component's is not among them.
    EXPECT_EQ(t[0].fields["dependencies"], nlohmann::json::array({"Threads"})) << tree;
  }
  EXPECT_EQ(Errors(AuditPackage("widget-asked-dep-namespace"), "cmake-missing-target")[0].fields["linked"],
            "NoSuchPackageAnywhere::lib");
}

// The Config asks for Gadget in one version and, for a consumer that asks for extras, in
// another; the prefix holds Gadget 1.4.0 (SameMajorVersion). Each request is judged: the one
// for 2.0 fails, and names the component only when the component makes it. Real cmake fails
// the consumer that asks for extras in widget-asked-dep-twice, and every consumer in
// widget-asked-dep-twice-reverse, each time on "compatible with requested version 2.0".
TEST(CMakeChecks, AComponentAskingForAnotherVersionOfADependencyIsJudgedAgain) {
  struct Case {
    const char* tree;
    const char* asked_component;  // "" when the plain consumer asks for 2.0
  } cases[] = {{"widget-asked-dep-twice", "extras"}, {"widget-asked-dep-twice-reverse", ""}};
  for (const Case& c : cases) {
    Report r = AuditPackage(c.tree);
    std::vector<Finding> v = Errors(r, "cmake-dependency-version");
    ASSERT_EQ(v.size(), 1u) << c.tree;
    EXPECT_EQ(v[0].fields["dependency"], "Gadget") << c.tree;
    EXPECT_EQ(v[0].fields["version"], "2.0") << c.tree;
    EXPECT_EQ(v[0].fields.value("asked_component", ""), c.asked_component) << c.tree;
    EXPECT_TRUE(FindingsOf(r, "cmake-missing-dependency").empty()) << c.tree;
    // Both requests are located: Gadget 1.0 is found in the same prefix, 2.0 nowhere.
    const std::string tree = c.tree;
    const FileFacts* facts = testing::FactsOf(r, Tree(tree + "/lib/cmake/Widget/WidgetConfig.cmake"));
    ASSERT_TRUE(facts && facts->cmake) << c.tree;
    EXPECT_EQ(facts->cmake->components, std::vector<std::string>{"extras"}) << c.tree;
    std::map<std::string, std::string> gadgets;  // version -> found
    for (const CMakeDependencyFacts& d : facts->cmake->dependencies)
      if (d.name == "Gadget") gadgets[d.version] = d.found;
    EXPECT_EQ(gadgets, (std::map<std::string, std::string>{
                           {"1.0", Tree(tree + "/lib/cmake/Gadget/GadgetConfig.cmake")}, {"2.0", ""}}))
        << c.tree;
  }
}

// What the consumer's linker is given for a link item no target answers, in a root that is a
// whole system: -lfoo, which the root's /usr/lib/<arch> has, links; -lbar, which no linker
// directory has, fails the build; an unexpanded qmake path ("$$[QT_HOST_LIBS]/...") is passed
// verbatim and names no file; a -l flag is a name too. Without INTERFACE_LINK_LIBRARIES, the
// older IMPORTED_LINK_INTERFACE_LIBRARIES_<CONFIG> is the link interface (bpp-raa's "zlib").
TEST(CMakeChecks, ALinkItemTheLinkerFindsNowhereFailsTheBuild) {
  testing::TempDir t;
  const std::string arch = "/usr/lib/x86_64-linux-gnu";
  std::filesystem::create_directories(t / ("root" + arch));
  testing::WriteAll(t / ("root" + arch + "/libfoo.so"), "");
  std::filesystem::create_directories(t / "root/usr/lib/cmake/P");
  testing::WriteAll(
      t / "root/usr/lib/cmake/P/PConfig.cmake",
      "add_library(P::p INTERFACE IMPORTED)\n"
      "set_target_properties(P::p PROPERTIES INTERFACE_LINK_LIBRARIES "
      "\"foo;bar;-lbaz;$$[QT_HOST_LIBS]/libQt5Core.so\")\n"
      "add_library(P::q INTERFACE IMPORTED)\n"
      "set_target_properties(P::q PROPERTIES INTERFACE_LINK_OPTIONS "
      "\"SHELL:$$[QT_HOST_LIBS]/libQt5Gui.so -Wl,--as-needed\")\n"
      "add_library(P::r SHARED IMPORTED)\n"
      "set_target_properties(P::r PROPERTIES IMPORTED_LOCATION_NONE /usr/lib/x86_64-linux-gnu/libfoo.so "
      "IMPORTED_LINK_INTERFACE_LIBRARIES_NONE \"foo;qux\")\n");
  std::vector<Finding> f = Errors(AuditInRoot(t), "cmake-missing-library");
  ASSERT_EQ(f.size(), 5u);
  std::set<std::string> libraries;
  for (Finding& x : f) {
    libraries.insert(x.fields["library"].get<std::string>());
    EXPECT_EQ(x.fields["cmake_stage"], "build");
  }
  EXPECT_EQ(libraries, (std::set<std::string>{"bar", "baz", "qux", "$$[QT_HOST_LIBS]/libQt5Core.so",
                                              "$$[QT_HOST_LIBS]/libQt5Gui.so"}));
  for (Finding& x : f)
    if (x.fields["library"].get<std::string>().starts_with("$$"))
      EXPECT_THAT(x.message, HasSubstr("passes to the linker verbatim"));
}

// Drogon's FindFilesystem.cmake saves CMAKE_CXX_STANDARD, sets 17 for its checks and sets it
// back to the saved "": run in the consumer's scope, that leaves it set and empty, and CMake's
// generate step rejects every C++ target the consumer adds after find_package() ("CXX_STANDARD
// is set to invalid value ''", cmake 3.25). A level CMake knows, or one set in a function's
// scope, is no finding.
TEST(CMakeChecks, AStandardLevelLeftInvalidInTheConsumersScopeFailsItsTargets) {
  auto audit = [](const std::string& config, const std::string& module) {
    testing::TempDir t;
    std::filesystem::create_directories(t / "root/usr/lib/cmake/P");
    testing::WriteAll(t / "root/usr/lib/cmake/P/PConfig.cmake", config);
    testing::WriteAll(t / "root/usr/lib/cmake/P/FindFs.cmake", module);
    return FindingsOf(AuditInRoot(t), "cmake-consumer-scope");
  };
  const std::string finding_fs =
      "include(CMakeFindDependencyMacro)\nlist(APPEND CMAKE_MODULE_PATH ${CMAKE_CURRENT_LIST_DIR})\n"
      "find_dependency(Fs)\n";
  std::vector<Finding> f =
      audit(finding_fs,
            "set(BACKUP_CXX_STANDARD \"${CMAKE_CXX_STANDARD}\")\nset(CMAKE_CXX_STANDARD 17)\n"
            "set(CMAKE_CXX_STANDARD \"${BACKUP_CXX_STANDARD}\")\nset(Fs_FOUND TRUE)\n");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kError);
  EXPECT_EQ(f[0].message,
            "PConfig.cmake:3: find_package(P) leaves CMAKE_CXX_STANDARD set to \"\" in the consumer's scope: "
            "CMake's generate step rejects every C++ target the consumer adds after it (CXX_STANDARD is set "
            "to invalid value '')");
  EXPECT_EQ(f[0].fields["variable"], "CMAKE_CXX_STANDARD");
  EXPECT_EQ(f[0].fields["value"], "");
  EXPECT_EQ(f[0].fields["cmake_stage"], "generate");
  EXPECT_EQ(f[0].fields["line"], 3);
  EXPECT_EQ(audit("set(CMAKE_C_STANDARD 89)\n", "").size(), 1u);
  EXPECT_TRUE(audit(finding_fs, "set(CMAKE_CXX_STANDARD 17)\nset(CMAKE_C_STANDARD 11)\nset(Fs_FOUND TRUE)\n")
                  .empty());
  EXPECT_TRUE(audit("function(f)\n  set(CMAKE_CXX_STANDARD \"\")\nendfunction()\nf()\n", "").empty());
  EXPECT_TRUE(audit("if(\"$ENV{X}\")\n  set(CMAKE_CXX_STANDARD \"\")\nendif()\n", "").empty());
}

// VPL's hand-written config sets locations for some configurations and no
// IMPORTED_CONFIGURATIONS: a consumer with no build type (CMake's default) maps none of them
// (cmTarget::GetMappedConfig) and its generate step fails ("IMPORTED_LOCATION not set for
// imported target"; a config that sets no policy version has its consumer's CMP0111, NEW).
// IMPORTED_CONFIGURATIONS naming one, or a plain IMPORTED_LOCATION, is enough.
TEST(CMakeChecks, LocationsOnlyForConfigurationsAPlainConsumerDoesNotMapAreNone) {
  testing::TempDir t;
  const std::string lib = "/usr/lib/x86_64-linux-gnu/libfoo.so";
  std::filesystem::create_directories(t / "root/usr/lib/x86_64-linux-gnu");
  testing::WriteAll(t / ("root" + lib), "");
  std::filesystem::create_directories(t / "root/usr/lib/cmake/P");
  testing::WriteAll(t / "root/usr/lib/cmake/P/PConfig.cmake",
                    "add_library(P::a SHARED IMPORTED)\n"
                    "set_target_properties(P::a PROPERTIES IMPORTED_LOCATION_RELEASE " +
                        lib + " IMPORTED_LOCATION_DEBUG " + lib +
                        ")\n"
                        "add_library(P::b SHARED IMPORTED)\n"
                        "set_target_properties(P::b PROPERTIES IMPORTED_LOCATION_RELEASE " +
                        lib +
                        " IMPORTED_CONFIGURATIONS Release)\n"
                        "add_library(P::c SHARED IMPORTED)\n"
                        "set_target_properties(P::c PROPERTIES IMPORTED_LOCATION " +
                        lib + ")\n");
  std::vector<Finding> f = Errors(AuditInRoot(t), "cmake-no-location");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].fields["target"], "P::a");
  EXPECT_EQ(f[0].fields["cmake_stage"], "generate");
  EXPECT_THAT(f[0].message,
              HasSubstr("IMPORTED_LOCATION only for DEBUG, RELEASE and no IMPORTED_CONFIGURATIONS"));
}

// $<TARGET_PROPERTY:Cups::Cups,...> in an INTERFACE_ property of an imported target (Qt 6.8's
// PrintSupportPrivate): in a root whose CMake's FindCups finds no CUPS, the optional
// find_package(Cups) leaves no Cups::Cups, and CMake fails the consumer that links P::p at
// generate ("Target \"Cups::Cups\" not found"). With CUPS's header and library installed, the
// module's target is the consumer's machine's answer: no error.
TEST(CMakeChecks, ATargetPropertyReadOfATargetNobodyDefinesFailsTheGenerateStep) {
  testing::TempDir t;
  std::filesystem::create_directories(t / "root/usr/share/cmake-3.25/Modules");
  testing::WriteAll(t / "root/usr/share/cmake-3.25/Modules/FindCups.cmake",
                    testing::ReadAll(std::string(ROCM_AUDIT_CMAKE_ROOT) + "/Modules/FindCups.cmake"));
  std::filesystem::create_directories(t / "root/usr/lib/cmake/P");
  testing::WriteAll(t / "root/usr/lib/cmake/P/PConfig.cmake",
                    "find_package(Cups)\n"
                    "add_library(P::p INTERFACE IMPORTED)\n"
                    "set_target_properties(P::p PROPERTIES INTERFACE_COMPILE_DEFINITIONS "
                    "\"P;$<TARGET_PROPERTY:Cups::Cups,INTERFACE_COMPILE_DEFINITIONS>\")\n");
  std::vector<Finding> f = Errors(AuditInRoot(t), "cmake-missing-target");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].fields["target"], "P::p");
  EXPECT_EQ(f[0].fields["linked"], "Cups::Cups");
  EXPECT_EQ(f[0].fields["cmake_stage"], "generate");
  EXPECT_THAT(f[0].message,
              HasSubstr("INTERFACE_COMPILE_DEFINITIONS of P::p reads a property of Cups::Cups"));

  std::filesystem::create_directories(t / "root/usr/include/cups");
  testing::WriteAll(t / "root/usr/include/cups/cups.h", "");
  std::filesystem::create_directories(t / "root/usr/lib/x86_64-linux-gnu");
  testing::WriteAll(t / "root/usr/lib/x86_64-linux-gnu/libcups.so", "");
  EXPECT_TRUE(Errors(AuditInRoot(t), "cmake-missing-target").empty());
}

// $<TARGET_OBJECTS:t>, $<TARGET_FILE:t> and their siblings fail the generate step when t does
// not exist, whatever its name (adios2 2.10's adios2::adios2sys_private has the INTERFACE_SOURCES
// $<TARGET_OBJECTS:adios2sys_objects>, an object library it never exports). A consumer fails
// as soon as what it links reaches such a target through link interfaces, in its package or a
// dependency's (as cmake 3.25: "Objects of target \"ad_objects\" referenced but no such
// target exists" when linking Ad::cxx; "No target \"gone\"" for $<BUILD_INTERFACE:...>, whose
// content is evaluated too). Under a condition, it is evaluated only where the condition
// holds: Ad::ok generates.
TEST(CMakeChecks, AnExpressionNamingATargetNobodyDefinesFailsWhoeverLinksIt) {
  testing::TempDir t;
  std::filesystem::create_directories(t / "root/usr/lib/cmake/Ad");
  testing::WriteAll(
      t / "root/usr/lib/cmake/Ad/AdConfig.cmake",
      "add_library(Ad::priv INTERFACE IMPORTED)\n"
      "set_target_properties(Ad::priv PROPERTIES INTERFACE_SOURCES \"$<TARGET_OBJECTS:ad_objects>\")\n"
      "add_library(Ad::core INTERFACE IMPORTED)\n"
      "set_target_properties(Ad::core PROPERTIES INTERFACE_LINK_LIBRARIES \"Ad::priv\")\n"
      "add_library(Ad::cxx INTERFACE IMPORTED)\n"
      "set_target_properties(Ad::cxx PROPERTIES INTERFACE_LINK_LIBRARIES \"Ad::core\")\n"
      "add_library(Ad::ok INTERFACE IMPORTED)\n"
      "set_target_properties(Ad::ok PROPERTIES INTERFACE_SOURCES "
      "\"$<$<CONFIG:Nope>:$<TARGET_OBJECTS:gone>>\")\n"
      "add_library(Ad::b INTERFACE IMPORTED)\n"
      "set_target_properties(Ad::b PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "
      "\"$<BUILD_INTERFACE:$<TARGET_FILE_DIR:gone>>\")\n");
  std::filesystem::create_directories(t / "root/usr/lib/cmake/P");
  testing::WriteAll(t / "root/usr/lib/cmake/P/PConfig.cmake",
                    "include(CMakeFindDependencyMacro)\nfind_dependency(Ad)\n"
                    "add_library(P::p INTERFACE IMPORTED)\n"
                    "set_target_properties(P::p PROPERTIES INTERFACE_LINK_LIBRARIES \"Ad::cxx\")\n"
                    "add_library(P::ok INTERFACE IMPORTED)\n"
                    "set_target_properties(P::ok PROPERTIES INTERFACE_LINK_LIBRARIES \"Ad::ok\")\n"
                    "add_library(P::b INTERFACE IMPORTED)\n"
                    "set_target_properties(P::b PROPERTIES INTERFACE_LINK_LIBRARIES \"Ad::b\")\n");
  std::vector<Finding> f = Errors(AuditInRoot(t), "cmake-missing-target");
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[1].fields["target"], "P::b");
  EXPECT_EQ(f[1].fields["linked"], "gone");
  EXPECT_EQ(f[0].fields["target"], "P::p");
  EXPECT_EQ(f[0].fields["linked"], "ad_objects");
  EXPECT_EQ(f[0].fields["cmake_stage"], "generate");
  EXPECT_THAT(f[0].message,
              HasSubstr("INTERFACE_LINK_LIBRARIES of P::p names Ad::cxx, which fails the generate "
                        "step of whoever links it: INTERFACE_SOURCES of Ad::priv names ad_objects in "
                        "$<TARGET_OBJECTS:ad_objects>, a target Ad and its dependencies never define"));

  AuditRequest o;
  o.paths = {t / "root/usr/lib/cmake/Ad"};
  o.roots = {t / "root"};
  o.ld_so_conf = "";
  std::vector<Finding> own = Errors(AuditWith(o), "cmake-missing-target");
  ASSERT_EQ(own.size(), 2u);
  EXPECT_EQ(own[0].fields["target"], "Ad::priv");
  EXPECT_EQ(own[0].fields["linked"], "ad_objects");
  EXPECT_THAT(own[0].message,
              HasSubstr("INTERFACE_SOURCES of Ad::priv names ad_objects in $<TARGET_OBJECTS:ad_objects>"));
}

// DBCSR's config finds MPI with no component and links MPI::MPI_Fortran: FindMPI defines a
// language's target for the languages the consumer enables, and project() enables C and CXX.
// cmake fails a C++ consumer at generate; the fix names the language.
TEST(CMakeChecks, AFortranTargetOfFindMPIIsMissingForAConsumerOfCAndCXX) {
  testing::TempDir t;
  std::filesystem::create_directories(t / "root/usr/lib/cmake/P");
  const std::string targets =
      "add_library(P::p INTERFACE IMPORTED)\n"
      "set_target_properties(P::p PROPERTIES INTERFACE_LINK_LIBRARIES \"MPI::MPI_C;MPI::MPI_Fortran\")\n";
  testing::WriteAll(t / "root/usr/lib/cmake/P/PConfig.cmake",
                    "include(CMakeFindDependencyMacro)\nfind_dependency(MPI)\n" + targets);
  std::vector<Finding> f = Errors(AuditInRoot(t), "cmake-missing-target");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].fields["linked"], "MPI::MPI_Fortran");
  EXPECT_THAT(f[0].message, HasSubstr("CMake's FindMPI defines it only for a consumer that enables Fortran"));
  EXPECT_THAT(f[0].hint, HasSubstr("enable_language(Fortran) in P's config before it finds MPI"));

  testing::WriteAll(
      t / "root/usr/lib/cmake/P/PConfig.cmake",
      "include(CMakeFindDependencyMacro)\nenable_language(Fortran)\nfind_dependency(MPI)\n" + targets);
  EXPECT_TRUE(Errors(AuditInRoot(t), "cmake-missing-target").empty());
}

// Qt::Gui is linked, and QtCore's config, evaluated only in part, defines Qt::Core alone:
// the namespace is checked as far as the evaluation reaches (real cmake fails at generate).
TEST(CMakeChecks, ATargetAPartlyEvaluatedNamespaceNeverDefinesIsMissing) {
  std::vector<Finding> t = Errors(AuditPackage("ns-partly-missing"), "cmake-missing-target");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].fields["linked"], "Qt::Gui");
  EXPECT_EQ(t[0].fields["cmake_stage"], "generate");
  EXPECT_THAT(t[0].message, HasSubstr("QtCore evaluated in part"));
}

// Top asks for Mid, which asks for a package found nowhere: both fail at configure.
TEST(CMakeChecks, AMissingDependencyFailsWhoeverRequiresTheOneThatAsks) {
  std::map<std::string, Finding> by_package;
  for (const Finding& f : FindingsOf(AuditPackage("dep-chain-missing"), "cmake-missing-dependency"))
    by_package[f.fields["package"].get<std::string>()] = f;
  ASSERT_EQ(by_package.size(), 2u);
  EXPECT_EQ(by_package["Top"].fields["dependency"], "Mid");
  EXPECT_THAT(by_package["Top"].message,
              HasSubstr("which cannot be loaded: NoSuchPackageAnywhere is found nowhere"));
  EXPECT_EQ(by_package["Mid"].fields["dependency"], "NoSuchPackageAnywhere");
}

// Top asks for Widget, found, whose export's import check stops configure for want of its
// library: CMake fails find_package(Top) too (hiprand over a rocrand without its library).
TEST(CMakeChecks, ADependencyWhoseOwnConfigStopsFailsWhoeverRequiresIt) {
  std::vector<Finding> top;
  for (const Finding& f : FindingsOf(AuditPackage("dep-chain-broken"), "cmake-missing-dependency"))
    if (f.fields["package"] == "Top") top.push_back(f);
  ASSERT_EQ(top.size(), 1u);
  EXPECT_EQ(top[0].fields["dependency"], "Widget");
  EXPECT_EQ(top[0].fields["cmake_stage"], "configure");
  EXPECT_THAT(top[0].message, HasSubstr("which cannot be loaded: Widget fails: "));
  EXPECT_THAT(top[0].message, HasSubstr("libwidget.so.1.2.3 is not installed"));
}

// `--root /` is the host as the installed system, which needs no root layer: find_package()
// searches its PATH-derived and system prefixes (CMAKE_SYSTEM_PREFIX_PATH) as under any
// other --root; without --root there is no consumer's system to search.
TEST(CMakeChecks, RootSlashSearchesTheSystemPrefixes) {
  auto searched = [](std::vector<std::string> roots) {
    AuditRequest o;
    o.paths = {Tree("dep-chain-missing")};
    o.ld_so_conf = "";
    o.roots = std::move(roots);
    for (const Finding& f : FindingsOf(AuditWith(o), "cmake-missing-dependency"))
      if (f.fields["package"] == "Mid") return f.fields["prefixes_searched"].get<std::vector<std::string>>();
    return std::vector<std::string>{"<no finding>"};
  };
  const std::vector<std::string> system{"/usr/local", "/usr",       "/",        "/usr/local/games",
                                        "/usr/games", "/usr/X11R6", "/usr/pkg", "/opt"};
  std::vector<std::string> host = searched({"/"});
  ASSERT_GE(host.size(), system.size());
  EXPECT_EQ(std::vector<std::string>(host.end() - system.size(), host.end()), system);
  EXPECT_THAT(searched({}), ::testing::Not(::testing::Contains("/usr")));
}

}  // namespace
}  // namespace rocm_audit
