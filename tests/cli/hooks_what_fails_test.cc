// What fails a build under each hook, and that each hook's documentation says it. The hooks
// fail on errors, and a RUNPATH into a build tree is one (rpath-build-dir): each hook runs the
// way tests/cli/hooks_test.cc runs it, on libraries linked with -Wl,-rpath,/build/xyz (a
// packager's DEB_LDFLAGS_APPEND) and with /home/me/src/tinyroc/build/lib (a CMake build
// tree), and fails; a waiver of rpath-build-dir alone lets the same build pass, so the entry
// is what fails it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "checks/registry.h"
#include "engine/comparison_rules.h"
#include "engine/known_rules.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

const std::string kSource = ROCM_AUDIT_SOURCE_DIR;
const std::string kBin = ROCM_AUDIT_BINARY;
const std::string kBuildDir = "/build/xyz";
const std::string kHomeBuildDir = "/home/me/src/tinyroc/build/lib";
const std::string kWaiver = "rpath-build-dir * # waived only to show it is what fails the build\n";

std::string BinDir() { return kBin.substr(0, kBin.rfind('/')); }

bool Has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Two libraries below `prefix`/lib, each with one build-tree entry and no other defect.
void LinkWithBuildTreeRunpaths(const std::string& prefix) {
  ASSERT_EQ(RunCommand("mkdir -p " + prefix + "/lib && cd " + prefix +
                       "/lib && printf 'int roc_f(void) { return 0; }\\n' > f.c"
                       " && gcc -shared -fPIC -o libroc-b.so.1 -Wl,-soname,libroc-b.so.1 -Wl,-rpath," +
                       kBuildDir +
                       " f.c && gcc -shared -fPIC -o libroc-h.so.1 -Wl,-soname,libroc-h.so.1 -Wl,-rpath," +
                       kHomeBuildDir + " f.c && rm f.c"),
            0);
}

// Both entries reported as errors.
void ExpectBothEntriesFail(const std::string& out) {
  EXPECT_THAT(out, ::testing::HasSubstr("error[rpath-build-dir]: ")) << out;
  EXPECT_THAT(out, ::testing::HasSubstr(" entry " + kBuildDir + " points into a build directory (build)"))
      << out;
  EXPECT_THAT(out, ::testing::HasSubstr(" entry " + kHomeBuildDir + " points into a build directory (build)"))
      << out;
  EXPECT_THAT(out, ::testing::Not(::testing::HasSubstr("warning[rpath-build-dir]"))) << out;
}

TEST(HooksWhatFails, CMakeModuleFailsTheInstall) {
  TempDir t;
  WriteAll(t / "src/CMakeLists.txt",
           "cmake_minimum_required(VERSION 3.25)\nproject(tinyroc LANGUAGES C)\n"
           "add_library(roc-b SHARED f.c)\ntarget_link_options(roc-b PRIVATE -Wl,-rpath," +
               kBuildDir +
               ")\n"
               "add_library(roc-h SHARED f.c)\nset_target_properties(roc-h PROPERTIES INSTALL_RPATH " +
               kHomeBuildDir +
               ")\n"
               "install(TARGETS roc-b roc-h LIBRARY DESTINATION lib)\n"
               "include(RocmAudit)\nrocm_audit_install(${WAIVER})\n");
  WriteAll(t / "src/f.c", "int roc_f(void) { return 0; }\n");
  WriteAll(t / "waivers", kWaiver);
  auto configure = [&](const std::string& build, const std::string& waiver) {
    return RunCommand(CMakeModuleProjectCommand(t / "src", build, build + "/prefix",
                                                waiver.empty() ? "" : " '-DWAIVER=SUPPRESS;" + waiver + "'",
                                                ">/dev/null"));
  };
  ASSERT_EQ(configure(t / "b1", ""), 0);
  std::string out;
  EXPECT_NE(RunCommand(ROCM_AUDIT_CMAKE_COMMAND " --install " + t / "b1" + " 2>&1", &out), 0) << out;
  ExpectBothEntriesFail(out);
  EXPECT_THAT(out, ::testing::HasSubstr("rocm-audit: " + t / "b1/prefix" + " has findings at error")) << out;
  ASSERT_EQ(configure(t / "b2", t / "waivers"), 0);
  EXPECT_EQ(RunCommand(ROCM_AUDIT_CMAKE_COMMAND " --install " + t / "b2" + " 2>&1", &out), 0) << out;
}

TEST(HooksWhatFails, GentooBashrcFailsTheMerge) {
  TempDir t;
  LinkWithBuildTreeRunpaths(t / "image/usr");
  WriteAll(t / "waived/etc/portage/rocm-audit/sci-libs/tinyroc.suppress", kWaiver);
  auto phase = [&](const std::string& config_root, std::string* out) {
    return RunCommand(
        "bash -c 'die() { echo \"die: $*\"; exit 1; }; einfo() { echo \" * $*\"; }; PATH=" + BinDir() +
            ":$PATH; D=" + t / "image" +
            "/; EROOT=/; CATEGORY=sci-libs; PN=tinyroc; PF=tinyroc-1.0; PORTAGE_CONFIGROOT=" + config_root +
            "; source " + kSource + "/hooks/gentoo/bashrc; post_src_install' 2>&1",
        out);
  };
  std::string out;
  EXPECT_NE(phase(t / "none/", &out), 0) << out;
  ExpectBothEntriesFail(out);
  EXPECT_THAT(out, ::testing::HasSubstr("die: rocm-audit: sci-libs/tinyroc-1.0 has findings")) << out;
  EXPECT_EQ(phase(t / "waived/", &out), 0) << out;
}

// The package's own build directory, whatever it is named and wherever PORTAGE_TMPDIR puts
// it (a tmpfs mount here, not /var/tmp), is a build directory.
TEST(HooksWhatFails, GentooBashrcFailsARunpathIntoThePackagesBuildDirectory) {
  TempDir t;
  const std::string builddir = t / "ramdisk/portage/sci-libs/tinyroc-1.0";
  const std::string entry = builddir + "/work/tinyroc-1.0/src/lib";
  ASSERT_EQ(
      RunCommand("mkdir -p " + t / "image/usr/lib64" + " && cd " + t / "image/usr/lib64" +
                 " && printf 'int roc_f(void) { return 0; }\\n' > f.c && gcc -shared -fPIC -o libroc.so.1"
                 " -Wl,-soname,libroc.so.1 -Wl,-rpath," +
                 entry + " f.c && rm f.c"),
      0);
  std::string out;
  EXPECT_NE(RunCommand("bash -c 'die() { echo \"die: $*\"; exit 1; }; einfo() { :; }; PATH=" + BinDir() +
                           ":$PATH; D=" + t / "image" +
                           "/; EROOT=/; CATEGORY=sci-libs; PN=tinyroc; "
                           "PF=tinyroc-1.0; PORTAGE_CONFIGROOT=" +
                           t / "none/" + "; PORTAGE_BUILDDIR=" + builddir + "; WORKDIR=" + builddir +
                           "/work; source " + kSource + "/hooks/gentoo/bashrc; post_src_install' 2>&1",
                       &out),
            0)
      << out;
  EXPECT_THAT(out,
              ::testing::HasSubstr(" entry " + entry + " points into a directory matching --forbid-rpath " +
                                   builddir + "/*"))
      << out;
}

// A CMake build directory named like no build tree (-B b3.5) and the source tree: an
// INSTALL_RPATH into either fails the install.
TEST(HooksWhatFails, CMakeModuleFailsARunpathIntoTheProjectsOwnTrees) {
  TempDir t;
  WriteAll(t / "src/CMakeLists.txt",
           "cmake_minimum_required(VERSION 3.5)\nproject(tinyroc LANGUAGES C)\n"
           "add_library(roc-b SHARED f.c)\nset_target_properties(roc-b PROPERTIES INSTALL_RPATH "
           "${CMAKE_BINARY_DIR}/lib)\n"
           "add_library(roc-s SHARED f.c)\nset_target_properties(roc-s PROPERTIES INSTALL_RPATH "
           "${CMAKE_SOURCE_DIR}/third_party/lib)\n"
           "install(TARGETS roc-b roc-s LIBRARY DESTINATION lib)\n"
           "include(RocmAudit)\nrocm_audit_install()\n");
  WriteAll(t / "src/f.c", "int roc_f(void) { return 0; }\n");
  ASSERT_EQ(RunCommand(CMakeModuleProjectCommand(t / "src", t / "b3.5", t / "stage/usr", "", ">/dev/null")),
            0);
  std::string out;
  EXPECT_NE(RunCommand(ROCM_AUDIT_CMAKE_COMMAND " --install " + t / "b3.5" + " 2>&1", &out), 0) << out;
  EXPECT_THAT(out, ::testing::HasSubstr(" entry " + t / "b3.5/lib" +
                                        " points into a directory matching --forbid-rpath " + t / "b3.5/*"))
      << out;
  EXPECT_THAT(out, ::testing::HasSubstr(" entry " + t / "src/third_party/lib" +
                                        " points into a directory matching --forbid-rpath " + t / "src/*"))
      << out;
}

// The setup hook as stdenv's fixupPhase runs postFixupHooks (runHook postFixup).
TEST(HooksWhatFails, NixSetupHookFailsTheBuild) {
  TempDir t;
  LinkWithBuildTreeRunpaths(t / "out");
  WriteAll(t / "waivers", kWaiver);
  auto fixup = [&](const std::string& extra, std::string* out) {
    return RunCommand(
        "bash -c 'set -e; runHook() { local h; local hooks=\"$1Hooks[@]\"; for h in \"${!hooks}\"; do "
        "\"$h\"; done; }; postFixupHooks=(); source <(sed \"s|@rocmAudit@|" +
            kBin + "|\" " + kSource + "/hooks/nix/rocm-audit-hook.sh); outputs=out; out=" + t / "out" + "; " +
            extra + " runHook postFixup' 2>&1",
        out);
  };
  std::string out;
  EXPECT_NE(fixup("", &out), 0) << out;
  ExpectBothEntriesFail(out);
  EXPECT_EQ(fixup("rocmAuditSuppress=" + t / "waivers" + ";", &out), 0) << out;
}

// Each hook's documentation names exactly the checks whose findings fail its build by
// default, the error-level ones, and its code gates at error by default.
TEST(HooksWhatFails, EachHookDocumentsTheChecksThatFailIt) {
  std::vector<std::string> errors;
  // The hooks audit; the comparison rules (diff) never fail them.
  const auto comparison = ComparisonRules();
  for (const Rule& r : KnownRules())
    if (r.severity == Severity::kError &&
        std::none_of(comparison.begin(), comparison.end(), [&](const Rule* c) { return c->id == r.id; }))
      errors.emplace_back(r.id);
  std::sort(errors.begin(), errors.end());
  std::string list;
  for (const std::string& id : errors) list += (list.empty() ? "" : ", ") + id;
  const std::pair<const char*, const char*> hooks[] = {
      {"hooks/debian/dh_rocm_audit", "'--fail-on', 'error'"},
      {"hooks/cmake/RocmAudit.cmake", "set(arg_FAIL_ON error)"},
      {"hooks/nix/rocm-audit-hook.sh", "--fail-on error"},
      {"hooks/gentoo/bashrc", "--fail-on \"${ROCM_AUDIT_FAIL_ON:-error}\""},
  };
  for (const auto& [hook, gate] : hooks) {
    const std::string text = ReadAll(kSource + "/" + hook);
    // The prose of its comments or POD: comment markers dropped, lines joined.
    std::string prose;
    for (size_t at = 0; at < text.size();) {
      size_t end = std::min(text.find('\n', at), text.size());
      std::string line = text.substr(at, end - at);
      line.erase(0, line.find_first_not_of(" \t"));
      if (line.starts_with("#")) line.erase(0, line.find_first_not_of("# "));
      prose += (prose.empty() ? "" : " ") + line;
      at = end + 1;
    }
    EXPECT_TRUE(Has(prose, "The checks whose findings are errors by default: " + list + " ") ||
                Has(prose, "The checks whose findings are errors by default: " + list + ". "))
        << hook << " should list: " << list;
    EXPECT_THAT(text, ::testing::HasSubstr(gate)) << hook;
  }
}

// The packager's trial: DEB_LDFLAGS_APPEND=-Wl,-rpath,/build/xyz through dpkg-buildflags,
// which dh exports to debian/rules.
TEST(HooksWhatFails, DebhelperBuildFails) {
  TempDir t;
  const std::string src = t / "tinyroc-1.0";
  WriteAll(src + "/debian/control",
           "Source: tinyroc\nSection: libs\nPriority: optional\nMaintainer: Test <test@rocm-audit.invalid>\n"
           "Build-Depends: debhelper-compat (= 13)\nStandards-Version: 4.6.2\n\n"
           "Package: libtinyroc1\nArchitecture: any\nDepends: ${shlibs:Depends}, ${misc:Depends}\n"
           "Description: rocm-audit hook test\n a library linked with a build-tree RUNPATH\n");
  WriteAll(src + "/debian/changelog",
           "tinyroc (1.0-1) unstable; urgency=medium\n\n  * Test.\n\n"
           " -- Test <test@rocm-audit.invalid>  Mon, 23 Nov 2026 00:00:00 +0000\n");
  WriteAll(src + "/debian/rules",
           "#!/usr/bin/make -f\n%:\n\tdh $@ --with rocm-audit\n\n"
           "override_dh_auto_build:\n\tgcc $(CFLAGS) $(LDFLAGS) -shared -fPIC -o libtinyroc.so.1 "
           "-Wl,-soname,libtinyroc.so.1 f.c\n\n"
           "override_dh_auto_install:\n\tinstall -D -m 644 libtinyroc.so.1 "
           "debian/libtinyroc1/usr/lib/x86_64-linux-gnu/libtinyroc.so.1\n");
  WriteAll(src + "/f.c", "int roc_f(void) { return 0; }\n");
  ASSERT_EQ(RunCommand("chmod +x " + src + "/debian/rules"), 0);
  std::string out;
  EXPECT_NE(RunCommand("cd " + src + " && PATH=" + kSource + "/hooks/debian:" + BinDir() +
                           ":$PATH PERL5LIB=" + kSource +
                           "/hooks/debian DEB_BUILD_OPTIONS=nocheck DEB_LDFLAGS_APPEND=-Wl,-rpath," +
                           kBuildDir + " dpkg-buildpackage -us -uc -b -d 2>&1",
                       &out),
            0)
      << out;
  EXPECT_THAT(out, ::testing::HasSubstr("error[rpath-build-dir]: ")) << out;
  EXPECT_THAT(out, ::testing::HasSubstr(" entry " + kBuildDir + " points into a build directory (build)"))
      << out;
  EXPECT_THAT(
      out, ::testing::HasSubstr("dh_rocm_audit: error: package libtinyroc1 has findings that fail the build"))
      << out;
  EXPECT_EQ(RunCommand("test -e " + t / "libtinyroc1_1.0-1_amd64.deb"), 1);
  // A RUNPATH into the source package's own directory, named like no build tree.
  EXPECT_NE(RunCommand("cd " + src + " && PATH=" + kSource + "/hooks/debian:" + BinDir() +
                           ":$PATH PERL5LIB=" + kSource +
                           "/hooks/debian DEB_BUILD_OPTIONS=nocheck DEB_LDFLAGS_APPEND=-Wl,-rpath," + src +
                           "/out/lib dpkg-buildpackage -us -uc -b -d 2>&1",
                       &out),
            0)
      << out;
  EXPECT_THAT(out,
              ::testing::HasSubstr(" entry " + src +
                                   "/out/lib points into a directory matching --forbid-rpath " + src + "/*"))
      << out;
}

}  // namespace
}  // namespace rocm_audit::testing
