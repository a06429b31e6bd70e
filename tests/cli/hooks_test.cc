// The hooks in hooks/, each run the way its system runs it, on a library with a planted
// defect (an undefined symbol): the hook fails the build, and passes once a waiver with a
// reason accepts the defect. Debian: the real dpkg-buildpackage with dh --with rocm-audit.
// CMake: the real `cmake --install`, with and without DESTDIR. Nix: the real nix-build of
// a derivation without nixpkgs, and a harness that runs the setup hook as stdenv's
// fixupPhase runs postFixupHooks. Gentoo: a harness that runs post_src_install as portage's
// ebuild.sh does, with its die/einfo. Spack: the command the mixin builds. CI: both files
// parsed as YAML and held to what GitHub and GitLab read. And `cpack -G DEB`.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;

const std::string kSource = ROCM_AUDIT_SOURCE_DIR;
const std::string kBin = ROCM_AUDIT_BINARY;
const std::string kWaiver = "undefined-symbol * roc_missing # provided by the plugin host at run time\n";

// A staged prefix whose library calls a function nothing defines.
void PlantDefect(const std::string& prefix) {
  ASSERT_EQ(
      RunCommand("mkdir -p " + prefix +
                 "/lib && printf 'int roc_missing(void); int roc_f(void) { return "
                 "roc_missing(); }\\n' > " +
                 prefix + "/f.c && gcc -shared -fPIC -o " + prefix +
                 "/lib/libroc-f.so.1 -Wl,-soname,libroc-f.so.1 " + prefix + "/f.c && rm " + prefix + "/f.c"),
      0);
}

std::string BinDir() { return kBin.substr(0, kBin.rfind('/')); }

TEST(Hooks, CMakeModuleAuditsAtInstallTimeWithAndWithoutDestdir) {
  TempDir t;
  WriteAll(t / "src/CMakeLists.txt",
           "cmake_minimum_required(VERSION 3.25)\nproject(roc LANGUAGES C)\n"
           "add_library(roc-f SHARED f.c)\nset_target_properties(roc-f PROPERTIES SOVERSION 1)\n"
           "install(TARGETS roc-f LIBRARY DESTINATION lib)\n"
           "include(RocmAudit)\nrocm_audit_install(${WAIVER})\n");
  WriteAll(t / "src/f.c", "int roc_missing(void);\nint roc_f(void) { return roc_missing(); }\n");
  WriteAll(t / "waivers", kWaiver);
  auto configure = [&](const std::string& build, const std::string& waiver) {
    return RunCommand(CMakeModuleProjectCommand(t / "src", build, t / "prefix",
                                                waiver.empty() ? "" : " '-DWAIVER=SUPPRESS;" + waiver + "'",
                                                ">/dev/null"));
  };
  ASSERT_EQ(configure(t / "b1", ""), 0);
  std::string out;
  EXPECT_NE(RunCommand(ROCM_AUDIT_CMAKE_COMMAND " --install " + t / "b1" + " 2>&1", &out), 0) << out;
  EXPECT_THAT(out, HasSubstr("undefined symbol roc_missing")) << out;
  EXPECT_THAT(out, HasSubstr("rocm-audit: " + t / "prefix" + " has findings")) << out;
  // Staged: the DESTDIR tree is audited, as installed.
  EXPECT_NE(
      RunCommand("DESTDIR=" + t / "stage" + " " ROCM_AUDIT_CMAKE_COMMAND " --install " + t / "b1" + " 2>&1",
                 &out),
      0);
  EXPECT_THAT(out,
              HasSubstr("auditing the install prefix " + t / "stage" + t / "prefix" + " as installed over /"))
      << out;
  ASSERT_EQ(configure(t / "b2", t / "waivers"), 0);
  EXPECT_EQ(RunCommand(ROCM_AUDIT_CMAKE_COMMAND " --install " + t / "b2" + " 2>&1", &out), 0) << out;
}

TEST(Hooks, DebhelperAddonFailsTheBuildAndAWaiverPassesIt) {
  TempDir t;
  const std::string src = t / "roctest-1.0";
  WriteAll(src + "/debian/control",
           "Source: roctest\nSection: libs\nPriority: optional\nMaintainer: Test <test@rocm-audit.invalid>\n"
           "Build-Depends: debhelper-compat (= 13)\nStandards-Version: 4.6.2\n\n"
           "Package: libroctest1\nArchitecture: any\nDepends: ${shlibs:Depends}, ${misc:Depends}\n"
           "Description: rocm-audit hook test\n a library with a planted defect\n");
  WriteAll(src + "/debian/changelog",
           "roctest (1.0-1) unstable; urgency=medium\n\n  * Test.\n\n"
           " -- Test <test@rocm-audit.invalid>  Mon, 23 Nov 2026 00:00:00 +0000\n");
  WriteAll(
      src + "/debian/rules",
      "#!/usr/bin/make -f\n%:\n\tdh $@ --with rocm-audit\n\n"
      "override_dh_auto_build:\n\tgcc -shared -fPIC -o libroctest.so.1 -Wl,-soname,libroctest.so.1 f.c\n\n"
      "override_dh_auto_install:\n\tinstall -D -m 644 libroctest.so.1 "
      "debian/libroctest1/usr/lib/x86_64-linux-gnu/libroctest.so.1\n");
  WriteAll(src + "/f.c", "int roc_missing(void);\nint roc_f(void) { return roc_missing(); }\n");
  ASSERT_EQ(RunCommand("chmod +x " + src + "/debian/rules"), 0);
  const std::string env = "PATH=" + kSource + "/hooks/debian:" + BinDir() + ":$PATH PERL5LIB=" + kSource +
                          "/hooks/debian DEB_BUILD_OPTIONS=nocheck ";
  const std::string build = "cd " + src + " && " + env + "dpkg-buildpackage -us -uc -b -d 2>&1";
  std::string out;
  EXPECT_NE(RunCommand(build, &out), 0) << out;
  EXPECT_THAT(
      out,
      HasSubstr("dh_rocm_audit: auditing package libroctest1 (debian/libroctest1) as installed over /\n"))
      << out;
  EXPECT_THAT(out, HasSubstr("undefined symbol roc_missing")) << out;
  EXPECT_THAT(out, HasSubstr("dh_rocm_audit: error: package libroctest1 has findings that fail the build"))
      << out;
  WriteAll(src + "/debian/libroctest1.rocm-audit-suppress", kWaiver);
  EXPECT_EQ(RunCommand(build, &out), 0) << out;
  EXPECT_EQ(RunCommand("test -f " + t / "libroctest1_1.0-1_amd64.deb"), 0);
  // The autopkgtest recipe is deb822 that autopkgtest reads: Test-Command, Depends, Restrictions.
  const std::string control = ReadAll(kSource + "/hooks/debian/autopkgtest/control");
  for (const char* field : {"Test-Command: /usr/share/rocm-audit/hooks/autopkgtest/rocm-audit-installed\n",
                            "Depends: @, rocm-audit\n", "Restrictions: "})
    EXPECT_THAT(control, HasSubstr(field)) << field;
  EXPECT_EQ(RunCommand("sh -n " + kSource + "/hooks/debian/autopkgtest/rocm-audit-installed"), 0);
}

// A source of three binary packages, built with the real dpkg-buildpackage and dh --with
// rocm-audit on a system that has none of them installed: the tools need the library of the
// sibling libroctest1, the -dev package's CMake config names that library and its own
// header. Each package is audited over its siblings, so the correct source passes; a file
// the config names but no package ships fails it. Then the same staged trees over a base
// holding an older libroctest-dev that still has the file: that stale copy is hidden, the
// defect still found.
TEST(Hooks, DebhelperAuditsEachPackageOverItsSiblings) {
  TempDir t;
  const std::string src = t / "roctest-2.0";
  WriteAll(src + "/debian/control",
           "Source: roctest\nSection: libs\nPriority: optional\nMaintainer: Test <test@rocm-audit.invalid>\n"
           "Build-Depends: debhelper-compat (= 13)\nStandards-Version: 4.6.2\n\n"
           "Package: libroctest1\nArchitecture: any\nDepends: ${shlibs:Depends}, ${misc:Depends}\n"
           "Description: rocm-audit hook test library\n the library\n\n"
           "Package: roctest-tools\nArchitecture: any\nDepends: libroctest1 (= ${binary:Version}), "
           "${shlibs:Depends}, ${misc:Depends}\nDescription: rocm-audit hook test tools\n a program\n\n"
           "Package: libroctest-dev\nArchitecture: any\nDepends: libroctest1 (= ${binary:Version}), "
           "${misc:Depends}\nDescription: rocm-audit hook test headers\n a CMake package\n");
  WriteAll(src + "/debian/changelog",
           "roctest (2.0-1) unstable; urgency=medium\n\n  * Test.\n\n"
           " -- Test <test@rocm-audit.invalid>  Mon, 23 Nov 2026 00:00:00 +0000\n");
  const std::string lib = "usr/lib/x86_64-linux-gnu";
  WriteAll(src + "/debian/rules",
           "#!/usr/bin/make -f\n%:\n\tdh $@ --with rocm-audit\n\n"
           "override_dh_auto_build:\n"
           "\tgcc -shared -fPIC -o libroctest.so.1 -Wl,-soname,libroctest.so.1 f.c\n"
           "\tgcc -o roctest main.c -L. -l:libroctest.so.1\n\n"
           "override_dh_auto_install:\n"
           "\tinstall -D -m 644 libroctest.so.1 debian/libroctest1/" +
               lib +
               "/libroctest.so.1\n"
               "\tinstall -D -m 755 roctest debian/roctest-tools/usr/bin/roctest\n"
               "\tinstall -D -m 644 roctest.h debian/libroctest-dev/usr/include/roctest.h\n"
               "\tinstall -D -m 644 roctestConfig.cmake debian/libroctest-dev/" +
               lib +
               "/cmake/roctest/roctestConfig.cmake\n"
               "\tln -s libroctest.so.1 debian/libroctest-dev/" +
               lib +
               "/libroctest.so\n\n"
               "override_dh_shlibdeps:\n");  // its Depends are written above; only the audit is tested
  WriteAll(src + "/f.c", "int roc_f(void) { return 1; }\n");
  WriteAll(src + "/main.c", "int roc_f(void);\nint main(void) { return roc_f(); }\n");
  WriteAll(src + "/roctest.h", "int roc_f(void);\n");
  auto config = [&](bool defect) {
    WriteAll(src + "/roctestConfig.cmake",
             "add_library(roctest::roctest SHARED IMPORTED)\n"
             "set_target_properties(roctest::roctest PROPERTIES IMPORTED_LOCATION \"/" +
                 lib + "/libroctest.so.1\" INTERFACE_INCLUDE_DIRECTORIES \"/usr/include\")\n" +
                 (defect ? "add_library(roctest::static STATIC IMPORTED)\n"
                           "set_target_properties(roctest::static PROPERTIES IMPORTED_LOCATION \"/" +
                               lib + "/libroctest.a\")\n"
                         : std::string()));
  };
  ASSERT_EQ(RunCommand("chmod +x " + src + "/debian/rules"), 0);
  const std::string env = "PATH=" + kSource + "/hooks/debian:" + BinDir() + ":$PATH PERL5LIB=" + kSource +
                          "/hooks/debian DEB_BUILD_OPTIONS=nocheck ";
  const std::string build = "cd " + src + " && " + env + "dpkg-buildpackage -us -uc -b -d 2>&1";
  ASSERT_NE(RunCommand("dpkg-query -W libroctest1 libroctest-dev roctest-tools 2>/dev/null"), 0)
      << "the packages must not be installed on this system";
  std::string out;
  config(false);
  EXPECT_EQ(RunCommand(build, &out), 0) << out;
  EXPECT_THAT(out,
              HasSubstr("dh_rocm_audit: auditing package roctest-tools (debian/roctest-tools) as installed "
                        "over / with its siblings libroctest1, libroctest-dev\n"))
      << out;
  config(true);
  EXPECT_NE(RunCommand(build, &out), 0) << out;
  EXPECT_THAT(out, HasSubstr("libroctest.a")) << out;
  EXPECT_THAT(out, HasSubstr("[cmake-missing-file]")) << out;
  EXPECT_THAT(out, HasSubstr("dh_rocm_audit: error: package libroctest-dev has findings that fail the build"))
      << out;
  // An older libroctest-dev installed in the base, which shipped libroctest.a: dpkg removes it
  // when the new one is installed, so it never stands in for the file the new one dropped.
  const std::string base = t / "base";
  ASSERT_EQ(RunCommand("mkdir -p " + base + "/var/lib/dpkg/info " + base + "/" + lib + " && echo old > " +
                       base + "/" + lib + "/libroctest.a && printf '/.\\n/usr\\n/" + lib +
                       "/libroctest.a\\n' > " + base + "/var/lib/dpkg/info/libroctest-dev.list"),
            0);
  const std::string audit = kBin + " --no-progress --root " + src + "/debian/libroctest-dev --sibling " +
                            src + "/debian/libroctest1 --sibling " + src + "/debian/roctest-tools --root " +
                            base + " --root / " + src + "/debian/libroctest-dev";
  EXPECT_NE(RunCommand(audit + " --installing libroctest-dev 2>&1", &out), 0) << out;
  EXPECT_THAT(out, HasSubstr("[cmake-missing-file]")) << out;
  EXPECT_THAT(out,
              HasSubstr("audited as installed over the base (top first) " + base + ", /, with the siblings "))
      << out;
  // Without --installing, the base's copy is an installed file of some other package.
  EXPECT_EQ(RunCommand(audit + " 2>&1", &out), 0) << out;
}

TEST(Hooks, NixSetupHookRunsAfterFixupOnEveryOutput) {
  TempDir t;
  PlantDefect(t / "out");
  ASSERT_EQ(RunCommand("mkdir -p " + t / "dev/include"), 0);
  WriteAll(t / "waivers", kWaiver);
  // stdenv's fixupPhase ends with `runHook postFixup`, which runs each of postFixupHooks.
  auto fixup = [&](const std::string& extra) {
    std::string out;
    int status = RunCommand(
        "bash -c 'set -e; runHook() { local h; local hooks=\"$1Hooks[@]\"; for h in \"${!hooks}\"; do "
        "\"$h\"; done; }; "
        "postFixupHooks=(); source <(sed \"s|@rocmAudit@|" +
            kBin + "|\" " + kSource + "/hooks/nix/rocm-audit-hook.sh); outputs=\"out dev\"; out=" +
            t / "out" + "; dev=" + t / "dev" + "; " + extra + " runHook postFixup' 2>&1",
        &out);
    return std::make_pair(status, out);
  };
  auto [failed, said] = fixup("");
  EXPECT_NE(failed, 0) << said;
  EXPECT_THAT(said, HasSubstr("rocm-audit: auditing output out (" + t / "out" + ")\n")) << said;
  EXPECT_THAT(said, HasSubstr("undefined symbol roc_missing")) << said;
  EXPECT_THAT(said, HasSubstr("rocm-audit: output out has findings")) << said;
  auto [passed, said2] =
      fixup("rocmAuditSuppress=" + t / "waivers" + "; rocmAuditFlags=\"--fail-on error\";");
  EXPECT_EQ(passed, 0) << said2;
  EXPECT_THAT(said2, HasSubstr("rocm-audit: auditing output dev")) << said2;
  // A waiver file that cannot be read: rocm-audit exits 2, and the hook says it could not audit.
  auto [broken, said3] = fixup("rocmAuditSuppress=" + t / "absent" + ";");
  EXPECT_NE(broken, 0) << said3;
  EXPECT_THAT(said3, HasSubstr("rocm-audit: could not audit output out (exit 2): a tool error, not findings"))
      << said3;
  EXPECT_THAT(said3, ::testing::Not(HasSubstr("has findings"))) << said3;
}

// A derivation named `name` with `outputs` (Nix strings), built by t/builder.sh with the
// setup hook at t/hook.sh and `attributes` (Nix lines) added: nix-build's exit status and
// output. No sandbox and no build users, so that it runs as the test's user in a chroot.
std::pair<int, std::string> NixBuild(const TempDir& t, const std::string& name, const std::string& outputs,
                                     const std::string& attributes) {
  WriteAll(t / "default.nix", "derivation {\n  name = \"" + name +
                                  "\";\n  system = builtins.currentSystem;\n  builder = \"/bin/bash\";\n"
                                  "  args = [ \"" +
                                  t / "builder.sh" + "\" ];\n  outputs = [ " + outputs +
                                  " ];\n  PATH = \"/usr/bin:/bin\";\n  hook = \"" + t / "hook.sh" + "\";\n" +
                                  attributes + "}\n");
  std::string out;
  int status = RunCommand(
      "nix-build --no-out-link --option sandbox false --option build-users-group '' --option substituters "
      "'' " +
          t / "default.nix" + " 2>&1",
      &out);
  return {status, out};
}

// The same hook in a real nix-build (Debian's nix-bin) of a derivation with two outputs and
// no nixpkgs: without stdenv, the builder runs the fixup hooks as stdenv's fixupPhase does
// (runHook postFixup). Built without the sandbox and without build users (a container has
// neither), nothing substituted.
TEST(Hooks, NixBuildRunsTheSetupHookOnEveryOutput) {
  TempDir t;
  PlantDefect(t / "planted");
  WriteAll(t / "waivers", kWaiver);
  ASSERT_EQ(RunCommand("sed 's|@rocmAudit@|" + kBin + "|' " + kSource + "/hooks/nix/rocm-audit-hook.sh > " +
                       t / "hook.sh"),
            0);
  WriteAll(t / "builder.sh",
           "set -e\n"
           "mkdir -p \"$out/lib\" \"$dev/include\"\n"
           "cp \"$planted\" \"$out/lib/\"\n"
           "runHook() { local h hooks=\"$1Hooks[@]\"; for h in \"${!hooks}\"; do \"$h\"; done; }\n"
           "postFixupHooks=()\n"
           "source \"$hook\"\n"
           "runHook postFixup\n");
  auto build = [&](const std::string& suppress) {
    return NixBuild(t, "roc-f-" + std::to_string(suppress.size()), "\"out\" \"dev\"",
                    "  planted = \"" + t / "planted/lib/libroc-f.so.1" + "\";\n  rocmAuditSuppress = \"" +
                        suppress + "\";\n");
  };
  auto [failed, said] = build("");
  EXPECT_NE(failed, 0) << said;
  EXPECT_THAT(said, HasSubstr("rocm-audit: auditing output out")) << said;
  EXPECT_THAT(said, HasSubstr("undefined symbol roc_missing")) << said;
  auto [passed, said2] = build(t / "waivers");
  EXPECT_EQ(passed, 0) << said2;
  EXPECT_THAT(said2, HasSubstr("rocm-audit: auditing output dev")) << said2;
}

// The outputs of one derivation are siblings, as dh's binary packages of one source are: out's
// library needs lib's libroc-n.so.1 through a RUNPATH into $lib, and dev's CMake config names
// it there. Each output is audited at its store path, where those absolute names point, so the
// others are found as installed beside it (no --sibling: a store path is not a layer of /).
// A config naming a file lib does not ship fails the build.
TEST(Hooks, NixOutputsOfOneDerivationAreSiblings) {
  TempDir t;
  ASSERT_EQ(RunCommand("sed 's|@rocmAudit@|" + kBin + "|' " + kSource + "/hooks/nix/rocm-audit-hook.sh > " +
                       t / "hook.sh"),
            0);
  WriteAll(t / "builder.sh",
           "set -e\n"
           "mkdir -p \"$lib/lib\" \"$out/lib\" \"$dev/include\" \"$dev/lib/cmake/RocN\"\n"
           "echo 'int roc_n(void) { return 0; }' > n.c\n"
           "cc -shared -fPIC -nostdlib -o \"$lib/lib/libroc-n.so.1\" -Wl,-soname,libroc-n.so.1 n.c\n"
           "echo 'int roc_n(void); int roc_user(void) { return roc_n(); }' > u.c\n"
           "cc -shared -fPIC -nostdlib -o \"$out/lib/libroc-user.so.1\" -Wl,-soname,libroc-user.so.1 u.c "
           "-Wl,--no-as-needed \"$lib/lib/libroc-n.so.1\" -Wl,-rpath,\"$lib/lib\"\n"
           "echo 'int roc_n(void);' > \"$dev/include/roc_n.h\"\n"
           "cat > \"$dev/lib/cmake/RocN/RocNConfig.cmake\" <<EOF\n"
           "add_library(roc::n SHARED IMPORTED)\n"
           "set_target_properties(roc::n PROPERTIES IMPORTED_LOCATION \"$lib/lib/$library\"\n"
           "  IMPORTED_SONAME libroc-n.so.1 INTERFACE_INCLUDE_DIRECTORIES \"$dev/include\")\n"
           "EOF\n"
           "runHook() { local h hooks=\"$1Hooks[@]\"; for h in \"${!hooks}\"; do \"$h\"; done; }\n"
           "postFixupHooks=()\n"
           "source \"$hook\"\n"
           "runHook postFixup\n");
  auto build = [&](const std::string& library) {
    return NixBuild(t, "roc-outputs-" + library.substr(7, 1), "\"out\" \"dev\" \"lib\"",
                    "  library = \"" + library + "\";\n");
  };
  auto [passed, said] = build("libroc-n.so.1");
  EXPECT_EQ(passed, 0) << said;
  for (const char* output : {"out", "dev", "lib"})
    EXPECT_THAT(said, HasSubstr(std::string("rocm-audit: auditing output ") + output)) << said;
  EXPECT_THAT(said, ::testing::Not(HasSubstr("error["))) << said;
  auto [failed, said2] = build("libroc-gone.so.1");
  EXPECT_NE(failed, 0) << said2;
  EXPECT_THAT(said2, HasSubstr("[cmake-missing-file]")) << said2;
  EXPECT_THAT(said2, HasSubstr("libroc-gone.so.1")) << said2;
  EXPECT_THAT(said2, HasSubstr("rocm-audit: output dev has findings")) << said2;
}

TEST(Hooks, GentooBashrcFailsTheMergeAndAWaiverPassesIt) {
  TempDir t;
  PlantDefect(t / "image/usr");
  // portage's die, einfo and phase variables, then the phase function as ebuild.sh calls it.
  auto phase = [&](const std::string& config_root, const std::string& flags = "") {
    std::string out;
    int status = RunCommand(
        "bash -c 'die() { echo \"die: $*\"; exit 1; }; einfo() { echo \" * $*\"; }; "
        "PATH=" +
            BinDir() + ":$PATH; ROCM_AUDIT_FLAGS=\"" + flags + "\"; D=" + t / "image" +
            "/; EROOT=/; CATEGORY=sci-libs; "
            "PN=roctest; PF=roctest-1.0; PORTAGE_CONFIGROOT=" +
            config_root + "; source " + kSource + "/hooks/gentoo/bashrc; post_src_install' 2>&1",
        &out);
    return std::make_pair(status, out);
  };
  auto [failed, said] = phase(t / "etc-none/");
  EXPECT_NE(failed, 0) << said;
  EXPECT_THAT(said, HasSubstr(" * rocm-audit: auditing sci-libs/roctest-1.0 (its image " + t / "image" +
                              "/, as merged into /)\n"))
      << said;
  EXPECT_THAT(said, HasSubstr("die: rocm-audit: sci-libs/roctest-1.0 has findings")) << said;
  WriteAll(t / "config/etc/portage/rocm-audit/sci-libs/roctest.suppress", kWaiver);
  auto [passed, said2] = phase(t / "config/");
  EXPECT_EQ(passed, 0) << said2;
  // An option rocm-audit refuses: exit 2, a tool error, not findings.
  auto [broken, said3] = phase(t / "config/", "--fail-on sometimes");
  EXPECT_NE(broken, 0) << said3;
  EXPECT_THAT(said3, HasSubstr("die: rocm-audit could not audit sci-libs/roctest-1.0 (exit 2): a tool error"))
      << said3;
}

// python3 -B here and below: importing the mixin must not leave hooks/spack/__pycache__ in the
// source tree (the install excludes it as well; lintian fails a package that ships one).
TEST(Hooks, SpackMixinBuildsTheAuditCommand) {
  std::string out;
  ASSERT_EQ(
      RunCommand(std::string(ROCM_AUDIT_DEBIAN_PYTHON3) + " -B -c 'import sys; sys.path.insert(0, \"" +
                     kSource +
                     "/hooks/spack\"); import rocm_audit as r; "
                     "print(r.rocm_audit_command(\"/opt/spack/rocblas\", [\"--require-arch\", \"gfx90a\"], "
                     "\"/s/w.suppress\"))' 2>&1",
                 &out),
      0)
      << out;
  EXPECT_THAT(
      out, HasSubstr("['rocm-audit', '--no-progress', '--fail-on', 'error', '--suppress', '/s/w.suppress', "
                     "'--require-arch', 'gfx90a', '/opt/spack/rocblas']"))
      << out;
}

// spack.package as the mixin and a recipe use it (run_after, which, Executable with
// fail_on_error and returncode, InstallError; PackageBase's `module`, the recipe's module),
// then Roctest, a recipe class using the mixin, audited with the real rocm-audit for no
// waiver, a waiver file beside the recipe, and an absent waiver file. LOAD is the Python that
// defines Roctest as Spack would load it.
std::string SpackLoadScript(const std::string& load) {
  return "import importlib, importlib.machinery, importlib.util, subprocess, sys, types\n"
         "source, binary, prefix, root = sys.argv[1:5]\n"
         "class InstallError(Exception):\n    pass\n"
         "class Executable:\n"
         "    def __init__(self, path):\n        self.path, self.returncode = path, None\n"
         "    def __call__(self, *args, fail_on_error=True):\n"
         "        self.returncode = subprocess.call([self.path, *args], stdout=sys.stderr)\n"
         "        if fail_on_error and self.returncode:\n            raise RuntimeError('ProcessError')\n"
         "def which(name, required=False):\n    return Executable(binary) if name == 'rocm-audit' else None\n"
         "def run_after(phase):\n    return lambda f: f\n"
         "api = types.ModuleType('spack.package')\n"
         "api.__all__ = ['Executable', 'InstallError', 'run_after', 'which']\n"
         "for name in api.__all__:\n    setattr(api, name, globals()[name])\n"
         "sys.modules['spack'] = types.ModuleType('spack')\nsys.modules['spack'].__path__ = []\n"
         "sys.modules['spack.package'] = api\n" +
         load +
         "class Audited(Roctest):\n"
         "    spec = types.SimpleNamespace(name='roctest')\n"
         "    module = sys.modules[Roctest.__module__]\n"
         "    def __init__(self, suppress):\n        self.prefix, self.rocm_audit_suppress = prefix, "
         "suppress\n"
         "print('recipe module', Roctest.__module__, 'mixin module', Roctest.__mro__[1].__module__)\n"
         "for suppress in (None, 'rocm-audit.suppress', 'absent.suppress'):\n"
         "    try:\n        Audited(suppress).rocm_audit()\n        print(suppress, 'passed')\n"
         "    except InstallError as e:\n        print(suppress, 'InstallError:', e)\n";
}

// What the mixin does once loaded: its heading, the install failed on findings, passed with
// the waiver beside the recipe, failed as a tool error with an absent waiver file.
void ExpectSpackMixinVerdicts(const std::string& out, const std::string& prefix) {
  EXPECT_THAT(out, HasSubstr("rocm-audit: auditing roctest (its install prefix " + prefix + ")\n")) << out;
  EXPECT_THAT(out, HasSubstr("None InstallError: rocm-audit: roctest has findings")) << out;
  EXPECT_THAT(out, HasSubstr("rocm-audit.suppress passed\n")) << out;
  EXPECT_THAT(out,
              HasSubstr("absent.suppress InstallError: rocm-audit could not audit roctest (exit 2): a tool "
                        "error, not findings"))
      << out;
}

// Package API v1 (spack.pkg.<namespace>): the mixin's file is a repository's
// packages/rocm-audit-mixin/package.py, imported as spack.pkg.local.rocm_audit_mixin by
// Spack's loader, which prepends an import to the source: `from spack.package import *` in
// Spack 0.x, `from spack_repo.builtin.build_systems._package_api_v1 import *` in Spack 1.x
// (lib/spack/spack/repo.py, _PrependFileLoader). Both are run.
TEST(Hooks, SpackMixinFromAnApiV1RepositoryFailsTheInstall) {
  for (const std::string prepend :
       {"from spack.package import *", "from spack_repo.builtin.build_systems._package_api_v1 import *"}) {
    TempDir t;
    PlantDefect(t / "prefix");
    ASSERT_EQ(RunCommand("mkdir -p " + t / "repo/packages/rocm-audit-mixin " + t / "repo/packages/roctest" +
                         " && cp " + kSource + "/hooks/spack/rocm_audit.py " +
                         t / "repo/packages/rocm-audit-mixin/package.py"),
              0);
    WriteAll(t / "repo/packages/roctest/rocm-audit.suppress", kWaiver);
    WriteAll(t / "repo/packages/roctest/package.py",
             "from spack.pkg.local.rocm_audit_mixin import RocmAuditMixin\n"
             "class Roctest(RocmAuditMixin):\n    pass\n");
    WriteAll(t / "load.py",
             SpackLoadScript(
                 "for name in ('spack.pkg', 'spack.pkg.local', 'spack_repo', 'spack_repo.builtin',\n"
                 "             'spack_repo.builtin.build_systems'):\n"
                 "    sys.modules[name] = types.ModuleType(name)\n    sys.modules[name].__path__ = []\n"
                 "sys.modules['spack_repo.builtin.build_systems._package_api_v1'] = api\n"
                 "class PrependFileLoader(importlib.machinery.SourceFileLoader):\n"
                 "    def get_data(self, path):\n"
                 "        return b'" +
                 prepend +
                 "\\n' + super().get_data(path)\n"
                 "def load(name, directory):\n"
                 "    spec = importlib.util.spec_from_loader(name, PrependFileLoader(name, root + "
                 "'/packages/' + directory + '/package.py'))\n"
                 "    module = importlib.util.module_from_spec(spec)\n    sys.modules[name] = module\n"
                 "    spec.loader.exec_module(module)\n    return module\n"
                 "load('spack.pkg.local.rocm_audit_mixin', 'rocm-audit-mixin')\n"
                 "Roctest = load('spack.pkg.local.roctest', 'roctest').Roctest\n"));
    std::string out;
    ASSERT_EQ(RunCommand(std::string(ROCM_AUDIT_DEBIAN_PYTHON3) + " -B " + t / "load.py" + " " + kSource +
                             " " + kBin + " " + t / "prefix" + " " + t / "repo" + " 2>/dev/null",
                         &out),
              0)
        << prepend << "\n"
        << out;
    EXPECT_THAT(out, HasSubstr("recipe module spack.pkg.local.roctest mixin module "
                               "spack.pkg.local.rocm_audit_mixin\n"))
        << out;
    ExpectSpackMixinVerdicts(out, t / "prefix");
  }
}

// Package API v2 (Spack 1.0 and later): the repository is <root>/spack_repo/local/, Spack puts
// <root> on sys.path (RepoPath.enable) and imports a recipe as
// spack_repo.local.packages.<name>.package with importlib.import_module, no source prepended
// (Repo.get_pkg_class); the mixin is the module spack_repo/local/rocm_audit.py beside
// packages/, as the builtin repository's build_systems/ modules are. Nothing else is stubbed:
// spack_repo and its repositories are namespace packages on the path.
TEST(Hooks, SpackMixinFromAnApiV2RepositoryFailsTheInstall) {
  TempDir t;
  PlantDefect(t / "prefix");
  ASSERT_EQ(RunCommand("mkdir -p " + t / "root/spack_repo/local/packages/roctest" + " && cp " + kSource +
                       "/hooks/spack/rocm_audit.py " + t / "root/spack_repo/local/rocm_audit.py"),
            0);
  WriteAll(t / "root/spack_repo/local/repo.yaml", "repo:\n  namespace: local\n  api: v2.0\n");
  WriteAll(t / "root/spack_repo/local/packages/roctest/rocm-audit.suppress", kWaiver);
  WriteAll(t / "root/spack_repo/local/packages/roctest/package.py",
           "from spack_repo.local.rocm_audit import RocmAuditMixin\n\n"
           "from spack.package import *\n\n\n"
           "class Roctest(RocmAuditMixin):\n    pass\n");
  WriteAll(t / "load.py", SpackLoadScript("sys.path.insert(0, root)\n"
                                          "Roctest = importlib.import_module("
                                          "'spack_repo.local.packages.roctest.package').Roctest\n"));
  std::string out;
  ASSERT_EQ(RunCommand(std::string(ROCM_AUDIT_DEBIAN_PYTHON3) + " -B " + t / "load.py" + " " + kSource + " " +
                           kBin + " " + t / "prefix" + " " + t / "root" + " 2>/dev/null",
                       &out),
            0)
      << out;
  EXPECT_THAT(out, HasSubstr("recipe module spack_repo.local.packages.roctest.package mixin module "
                             "spack_repo.local.rocm_audit\n"))
      << out;
  ExpectSpackMixinVerdicts(out, t / "prefix");
}

TEST(Hooks, CiFilesAreWhatGithubAndGitlabRead) {
  const std::string check =
      std::string(ROCM_AUDIT_DEBIAN_PYTHON3) +
      " - <<'PY'\n"
      "import yaml\n"
      "gh = yaml.safe_load(open('" +
      kSource +
      "/hooks/ci/github-workflow.yml'))\n"
      "assert gh['permissions']['security-events'] == 'write'\n"
      "assert gh['jobs']['audit']['container'] == 'debian:12'\n"
      "assert gh['jobs']['audit']['defaults']['run']['shell'] == 'bash'\n"
      "steps = gh['jobs']['audit']['steps']\n"
      "upload = [s for s in steps if s.get('uses', '').startswith('github/codeql-action/upload-sarif@')]\n"
      "assert upload and upload[0]['with']['sarif_file'] == 'rocm-audit.sarif', upload\n"
      "assert any('--format sarif' in s.get('run', '') for s in steps)\n"
      "gl = yaml.safe_load(open('" +
      kSource +
      "/hooks/ci/gitlab-ci.yml'))\n"
      "job = gl['rocm-audit']\n"
      "assert job['image'] == 'debian:12'\n"
      "assert job['artifacts']['reports']['codequality'] == 'gl-code-quality-report.json'\n"
      "assert any('--format gitlab' in line for line in job['script'])\n"
      "print('ok')\n"
      "PY";
  std::string out;
  EXPECT_EQ(RunCommand(check, &out), 0) << out;
}

// The CI snippets' audit steps, run as the runners run them (GitHub: `shell: bash`; GitLab: its
// script lines from the waiver choice on, by sh) in a project directory with a staged tree: the waiver file
// is optional. Without one the step still writes its report (exit 1: the planted finding, not 2); with one it
// is used.
TEST(Hooks, CiAuditStepsRunWithAndWithoutAWaiverFile) {
  TempDir t;
  PlantDefect(t / "project/stage/usr");
  const std::string steps =
      std::string(ROCM_AUDIT_DEBIAN_PYTHON3) + " - " + kSource + " " + t / "steps" + " <<'PY'\n" +
      "import sys, yaml\n"
      "source, out = sys.argv[1:3]\n"
      "gh = yaml.safe_load(open(source + '/hooks/ci/github-workflow.yml'))\n"
      "step = [s for s in gh['jobs']['audit']['steps'] if s.get('name') == 'Audit'][0]\n"
      "assert gh['jobs']['audit']['defaults']['run']['shell'] == 'bash'\n"
      "open(out + '.github', 'w').write(step['run'])\n"
      "gl = yaml.safe_load(open(source + '/hooks/ci/gitlab-ci.yml'))\n"
      "script = gl['rocm-audit']['script']\n"
      "lines = script[[l.startswith('policy=') for l in script].index(True):]\n"
      "open(out + '.gitlab', 'w').write('set -e\\n' + '\\n'.join(lines) + '\\n')\n"
      "PY";
  ASSERT_EQ(RunCommand(steps), 0);
  auto run = [&](const std::string& shell, const std::string& file, const std::string& report) {
    std::string out;
    int status = RunCommand("cd " + t / "project" + " && rm -f " + report + " && PATH=" + BinDir() +
                                ":$PATH CI_PROJECT_DIR=" + t / "project" + " " + shell + " " + t / file +
                                " 2>&1; echo \"exit $?\"; test -s " + report + " && echo written",
                            &out);
    EXPECT_EQ(status, 0);
    return out;
  };
  EXPECT_THAT(run("bash -eo pipefail", "steps.github", "rocm-audit.sarif"), HasSubstr("exit 1\nwritten"))
      << "github";
  EXPECT_THAT(run("sh", "steps.gitlab", "gl-code-quality-report.json"), HasSubstr("exit 1\nwritten"))
      << "gitlab";
  WriteAll(t / "project/rocm-audit.suppress", kWaiver);
  EXPECT_THAT(run("bash -eo pipefail", "steps.github", "rocm-audit.sarif"), HasSubstr("exit 0\nwritten"))
      << "github";
  EXPECT_THAT(run("sh", "steps.gitlab", "gl-code-quality-report.json"), HasSubstr("exit 0\nwritten"))
      << "gitlab";
}

// .ci/run-snippets reads the snippets without a YAML parser (a fresh debian:12 root has none):
// its extraction must be what a YAML parser reads, the GitHub run steps in order and the
// GitLab script items, with their variables, and a form outside the subset it reads is refused.
TEST(Hooks, CiSnippetStepsExtractAsAYamlParserReadsThem) {
  TempDir t;
  const std::string extract = "bash -c 'source " + kSource + "/.ci/lib.sh && ";
  std::string steps;
  ASSERT_EQ(RunCommand(extract + "extract_github_steps " + kSource + "/hooks/ci/github-workflow.yml " +
                           t / "gh" + " && extract_gitlab_script " + kSource +
                           "/hooks/ci/gitlab-ci.yml rocm-audit " + t / "gl" + "'",
                       &steps),
            0)
      << steps;
  EXPECT_EQ(steps, "3\n");
  const std::string compare =
      std::string(ROCM_AUDIT_DEBIAN_PYTHON3) + " - " + kSource + " " + t.path() + " 2>&1 <<'PY'\n" +
      "import subprocess, sys, yaml\n"
      "source, out = sys.argv[1:3]\n"
      "def env(path):\n"
      "    script = 'set -e; . ' + path + '; env -0'\n"
      "    pairs = subprocess.run(['env', '-i', 'bash', '-c', script], capture_output=True, "
      "check=True).stdout\n"
      "    return {k: v for k, _, v in (p.decode().partition('=') for p in pairs.split(b'\\0') if p)\n"
      "            if k.startswith('ROCM_AUDIT_')}\n"
      "gh = yaml.safe_load(open(source + '/hooks/ci/github-workflow.yml'))\n"
      "runs = [s['run'] for s in gh['jobs']['audit']['steps'] if 'run' in s]\n"
      "got = [open(out + '/gh.%d' % (n + 1)).read() for n in range(len(runs))]\n"
      "assert got == runs, (got, runs)\n"
      "assert env(out + '/gh.env') == gh['env'], (env(out + '/gh.env'), gh['env'])\n"
      "job = yaml.safe_load(open(source + '/hooks/ci/gitlab-ci.yml'))['rocm-audit']\n"
      "assert open(out + '/gl.1').read() == '\\n'.join(job['script']) + '\\n'\n"
      "assert env(out + '/gl.env') == job['variables'], env(out + '/gl.env')\n"
      "print('same')\n"
      "PY";
  std::string out;
  EXPECT_EQ(RunCommand(compare, &out), 0) << out;
  EXPECT_EQ(out, "same\n");
  // Outside the subset: a folded block, a quoted variable, a block script item.
  WriteAll(t / "folded.yml", "env:\n  A: b\njobs:\n  j:\n    steps:\n      - run: >\n          echo x\n");
  WriteAll(t / "quoted.yml", "env:\n  A: \"b c\"\njobs:\n  j:\n    steps:\n      - run: echo x\n");
  WriteAll(t / "block.yml", "job:\n  script:\n    - |\n      echo x\n");
  EXPECT_NE(RunCommand(extract + "extract_github_steps " + t / "folded.yml " + t / "f' 2>&1", &out), 0)
      << out;
  EXPECT_THAT(out, HasSubstr("run: in a form this reader does not take"));
  EXPECT_NE(RunCommand(extract + "extract_github_steps " + t / "quoted.yml " + t / "q' 2>&1", &out), 0)
      << out;
  EXPECT_THAT(out, HasSubstr("not a plain variable"));
  EXPECT_NE(RunCommand(extract + "extract_gitlab_script " + t / "block.yml job " + t / "b' 2>&1", &out), 0)
      << out;
  EXPECT_THAT(out, HasSubstr("a script item in a form this reader does not take"));
}

// Each snippet builds rocm-audit from its source with exactly the README's first command: the
// same package list and the same configure flags (one list, not a second one to keep), plus
// git and ca-certificates to fetch the source; from ROCM_AUDIT_GIT, named once, at the
// release tag of this version; in the image the README's commands are proven in. And CI
// runs the snippets (.ci/run-snippets, from .ci/run).
TEST(Hooks, CiSnippetsBuildRocmAuditAsTheReadmeDoes) {
  const std::string check =
      std::string(ROCM_AUDIT_DEBIAN_PYTHON3) + " - " + kSource + " 2>&1 <<'PY'\n" +
      "import re, sys, yaml\n"
      "source = sys.argv[1]\n"
      "readme = open(source + '/README.md').read()\n"
      "first = readme[readme.index('## Two commands'):]\n"
      "first = first[first.index('```sh\\n') + 6:].split('\\n')[0]\n"
      "packages = re.search(r'apt-get install -y --no-install-recommends ([^&]*) &&', "
      "first).group(1).split()\n"
      "flags = re.search(r'cmake -S \\. -B build ([^&]*) &&', first).group(1).split()\n"
      "version = re.search(r'project\\(rocm-audit VERSION ([0-9.]+)', open(source + "
      "'/CMakeLists.txt').read()).group(1)\n"
      "gh = yaml.safe_load(open(source + '/hooks/ci/github-workflow.yml'))\n"
      "gl = yaml.safe_load(open(source + '/hooks/ci/gitlab-ci.yml'))['rocm-audit']\n"
      "snippets = {'github-workflow.yml': ('\\n'.join(s.get('run', '') for s in "
      "gh['jobs']['audit']['steps']), gh['env']),\n"
      "            'gitlab-ci.yml': ('\\n'.join(gl['script']), gl['variables'])}\n"
      "for name, (script, variables) in snippets.items():\n"
      "    lines = script.split('\\n')\n"
      "    installs = [l.split('--no-install-recommends ')[1].split() for l in lines if 'apt-get install' in "
      "l]\n"
      "    assert installs == [['git', 'ca-certificates'], packages], (name, installs, packages)\n"
      "    configures = [l.split('-B \"$src/build\" ')[1].split() for l in lines if l.startswith('cmake -S "
      "\"$src\"')]\n"
      "    assert configures == [flags], (name, configures, flags)\n"
      "    assert variables['ROCM_AUDIT_REF'] == 'v' + version, (name, variables)\n"
      "    text = open(source + '/hooks/ci/' + name).read()\n"
      "    assert text.count(variables['ROCM_AUDIT_GIT']) == 1, name\n"
      "    assert '\"$ROCM_AUDIT_GIT\" \"$ROCM_AUDIT_REF\"' in script, name\n"
      "assert gh['jobs']['audit']['container'] == 'debian:12' and gl['image'] == 'debian:12'\n"
      "assert '\"$ci/run-snippets\"' in open(source + '/.ci/run').read()\n"
      "print('same')\n"
      "PY";
  std::string out;
  EXPECT_EQ(RunCommand(check, &out), 0) << out;
  EXPECT_EQ(out, "same\n");
}

TEST(Hooks, CpackMakesADebWithTheToolTheManPageTheSchemaAndTheHooks) {
  TempDir t;
  const std::string build = kBin.substr(0, kBin.rfind('/'));
  std::string out;
  ASSERT_EQ(RunCommand("cd " + build + " && cpack -G DEB -B " + t.path() +
                           " >/dev/null 2>&1 && dpkg-deb -c " + t.path() + "/rocm-audit_*.deb",
                       &out),
            0)
      << out;
  for (const char* path :
       {"./usr/bin/rocm-audit", "./usr/bin/dh_rocm_audit", "./usr/share/man/man1/rocm-audit.1.gz",
        "./usr/share/man/man1/dh_rocm_audit.1.gz", "./usr/share/doc/rocm-audit/copyright",
        "./usr/share/doc/rocm-audit/changelog.gz", "./usr/share/rocm-audit/report.schema.json",
        "./usr/share/cmake/RocmAudit/RocmAuditConfig.cmake",
        "./usr/share/perl5/Debian/Debhelper/Sequence/rocm_audit.pm",
        "./usr/share/rocm-audit/hooks/nix/rocm-audit-hook.sh", "./usr/share/rocm-audit/hooks/gentoo/bashrc",
        "./usr/share/lintian/overrides/rocm-audit"})
    EXPECT_THAT(out, HasSubstr(path)) << path;
  std::string info;
  ASSERT_EQ(RunCommand("dpkg-deb -I " + t.path() + "/rocm-audit_*.deb", &info), 0);
  EXPECT_THAT(info, HasSubstr("Depends: ")) << info;
  EXPECT_THAT(info, HasSubstr("libarchive13")) << info;
  // `Build-Depends: dh-sequence-rocm-audit` is met once the .deb is installed: dpkg-checkbuilddeps
  // against a dpkg database holding only it and build-essential (which it always adds).
  const std::string root = t / "root";
  ASSERT_EQ(
      RunCommand("mkdir -p " + root + "/var/lib/dpkg/info " + root + "/var/lib/dpkg/updates " +
                 t / "be/DEBIAN" + " && touch " + root +
                 "/var/lib/dpkg/status && printf 'Package: build-essential\\nVersion: 1\\nArchitecture: "
                 "amd64\\nMaintainer: Test <test@rocm-audit.invalid>\\nDescription: test\\n' > " +
                 t / "be/DEBIAN/control" + " && dpkg-deb --build " + t / "be" + " " + t / "be.deb" +
                 " >/dev/null && dpkg --root=" + root + " --force-not-root --force-depends -i " +
                 t / "be.deb" + " " + t.path() + "/rocm-audit_*.deb >/dev/null 2>&1"),
      0);
  WriteAll(t / "control",
           "Source: roctest\nBuild-Depends: dh-sequence-rocm-audit\n\nPackage: roctest\n"
           "Architecture: any\nDescription: test\n a test\n");
  EXPECT_EQ(
      RunCommand("dpkg-checkbuilddeps --admindir=" + root + "/var/lib/dpkg " + t / "control" + " 2>&1", &out),
      0)
      << out;
}

}  // namespace
}  // namespace rocm_audit::testing
