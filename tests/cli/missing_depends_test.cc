// missing-depends on sets of .deb packages made by the real dpkg-deb, over a root of the
// test's own whose dpkg status says what is installed: a -dev package whose CMake config
// names, and whose libfoo.so link points into, the library of libfoo1, and a program linked
// to it, each without depending on libfoo1; and the relations dpkg follows that do reach it
// (directly, through an installed package's Depends, an alternative, a Provides). And the
// hints that read the set's Depends and the base: a lone package told which of its Depends
// ships what it lacks, a symbol the new version of a library dropped named with the
// installed copy that still defines it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>

#include <nlohmann/json.hpp>

#include "tests/cli/debian_source_fixture.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using Json = nlohmann::json;

const std::string kLib = "usr/lib/x86_64-linux-gnu";

class MissingDepends : public ::testing::Test {
 protected:
  void SetUp() override {
    MakeRoot(t_ / "root");
    ASSERT_EQ(RunCommand("mkdir -p " + t_ / "src" + " && cd " + t_ / "src" +
                         " && printf 'int foo(void) { return 1; }\\n' > foo.c"
                         " && printf 'int foo(void);\\nint main(void) { return foo(); }\\n' > main.c"
                         " && gcc -shared -fPIC -o libfoo.so.1 -Wl,-soname,libfoo.so.1 foo.c"
                         " && gcc -o foo main.c -L. -l:libfoo.so.1"),
              0);
  }

  // A .deb of `name` with `fields` (Depends:, Provides: lines) and the files `script` puts
  // below $D (the package root), made with dpkg-deb.
  std::string Deb(const std::string& name, const std::string& fields, const std::string& script,
                  const std::string& version = "1.0-1") {
    const std::string d = t_ / ("pkg-" + name + "-" + version),
                      deb = t_ / (name + "_" + version + "_amd64.deb");
    WriteAll(d + "/DEBIAN/control", "Package: " + name + "\nVersion: " + version +
                                        "\nArchitecture: amd64\nMaintainer: T <t@t.invalid>\n" + fields +
                                        "Description: test\n test\n");
    std::string out;
    EXPECT_EQ(
        RunCommand("cd " + t_ / "src" + " && D=" + d + " && " + script +
                       " && dpkg-deb --root-owner-group -Zgzip -b " + d + " " + deb + " >/dev/null 2>&1",
                   &out),
        0)
        << out;
    return deb;
  }

  std::string Library(const std::string& fields = "") {
    return Deb("libfoo1", fields, "mkdir -p $D/" + kLib + " && cp libfoo.so.1 $D/" + kLib + "/");
  }

  // libfoo-dev: its config names libfoo.so.1, its libfoo.so link points to it.
  std::string Dev(const std::string& fields) {
    return Deb("libfoo-dev", fields,
               "mkdir -p $D/" + kLib + "/cmake/foo && ln -sf libfoo.so.1 $D/" + kLib +
                   "/libfoo.so && printf 'add_library(foo::foo SHARED IMPORTED)\\n"
                   "set_target_properties(foo::foo PROPERTIES IMPORTED_LOCATION /" +
                   kLib + "/libfoo.so.1)\\n' > $D/" + kLib + "/cmake/foo/fooConfig.cmake");
  }

  Json Audit(const std::string& debs) {
    std::string out;
    RunCommand(
        std::string(ROCM_AUDIT_BINARY) + " --no-progress --format json --root " + t_ / "root" + " " + debs,
        &out);
    return Json::parse(out, nullptr, false);
  }

  // Installs into the root's dpkg status a package of `fields`.
  void Installed(const std::string& name, const std::string& fields) {
    ASSERT_EQ(RunCommand("printf 'Package: " + name + "\\nStatus: install ok installed\\nVersion: 1\\n" +
                         fields + "\\n' >> " + t_ / "root/var/lib/dpkg/status"),
              0);
  }

  TempDir t_;
};

std::vector<Json> Of(const Json& report, const std::string& check) {
  std::vector<Json> out;
  for (const Json& f : report["findings"])
    if (f["check"] == check) out.push_back(f);
  return out;
}

TEST_F(MissingDepends, ADevPackageThatDoesNotDependOnItsLibraryIsAnError) {
  const Json report = Audit(Library() + " " + Dev(""));
  const std::vector<Json> found = Of(report, "missing-depends");
  ASSERT_EQ(found.size(), 1u) << report.dump(1);
  const Json& f = found[0];
  EXPECT_EQ(f["severity"], "error");
  EXPECT_EQ(f["package"], "libfoo-dev");
  EXPECT_EQ(f["needs_package"], "libfoo1");
  EXPECT_EQ(f["needed"], "/" + kLib + "/libfoo.so.1");
  EXPECT_THAT(f["via"].get<std::string>(), HasSubstr("IMPORTED_LOCATION of foo::foo"));
  EXPECT_THAT(f["file"].get<std::string>(), HasSubstr("fooConfig.cmake"));
}

// What a packager reads: the text report of the same set, whole, pinned by
// tests/golden/missing-depends.txt (the test's directory shown as <tmp>). Regenerate with
// ROCM_AUDIT_UPDATE_GOLDEN=1 and review the diff.
TEST_F(MissingDepends, TheTextReportIsItsGoldenFile) {
  std::string text;
  RunCommand(std::string(ROCM_AUDIT_BINARY) + " --no-progress --ld-so-conf /nonexistent --root " +
                 t_ / "root" + " " + Library() + " " + Dev(""),
             &text);
  const std::string tmp = t_.path();
  for (size_t at; (at = text.find(tmp)) != std::string::npos;) text.replace(at, tmp.size(), "<tmp>");
  const std::string golden = std::string(ROCM_AUDIT_SOURCE_DIR) + "/tests/golden/missing-depends.txt";
  if (std::getenv("ROCM_AUDIT_UPDATE_GOLDEN")) WriteAll(golden, text);
  EXPECT_EQ(text, ReadAll(golden)) << "differs from " << golden << " (ROCM_AUDIT_UPDATE_GOLDEN=1 to accept)";
}

TEST_F(MissingDepends, TheLinkAloneAndAProgramsNeededLibraryNeedTheRelationToo) {
  const std::string link_only =
      Deb("libfoo-dev", "", "mkdir -p $D/" + kLib + " && ln -sf libfoo.so.1 $D/" + kLib + "/libfoo.so");
  std::vector<Json> found = Of(Audit(Library() + " " + link_only), "missing-depends");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0]["via"], "symbolic link");
  const std::string tools = Deb("foo-tools", "", "mkdir -p $D/usr/bin && cp foo $D/usr/bin/");
  found = Of(Audit(Library() + " " + tools), "missing-depends");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0]["package"], "foo-tools");
  EXPECT_EQ(found[0]["via"], "DT_NEEDED libfoo.so.1");
}

TEST_F(MissingDepends, EveryRelationDpkgFollowsSatisfiesIt) {
  // Directly, with a version; an alternative; a Provides; an installed package's Depends.
  EXPECT_TRUE(Of(Audit(Library() + " " + Dev("Depends: libfoo1 (= 1.0-1)\n")), "missing-depends").empty());
  EXPECT_TRUE(Of(Audit(Library() + " " + Dev("Depends: libbar1 | libfoo1\n")), "missing-depends").empty());
  EXPECT_TRUE(
      Of(Audit(Library("Provides: libfoo-abi-1\n") + " " + Dev("Depends: libfoo-abi-1\n")), "missing-depends")
          .empty());
  Installed("foo-common", "Depends: libc6, libfoo1 (>= 1.0)");
  EXPECT_TRUE(Of(Audit(Library() + " " + Dev("Pre-Depends: foo-common\n")), "missing-depends").empty());
}

TEST_F(MissingDepends, ARelationToAPackageNeitherInTheSetNorInstalledMakesItAWarning) {
  Installed("libc6", "");
  const std::vector<Json> found =
      Of(Audit(Library() + " " + Dev("Depends: libc6, foo-unknown\n")), "missing-depends");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0]["severity"], "warning");
  EXPECT_EQ(found[0]["open"], Json::array({"foo-unknown"}));
}

TEST_F(MissingDepends, ALonePackageIsToldWhichOfItsDependsShipsWhatItLacks) {
  const std::string tools =
      Deb("foo-tools", "Depends: libfoo1 (= 1.0-1)\n", "mkdir -p $D/usr/bin && cp foo $D/usr/bin/");
  const Json report = Audit(tools);
  const std::vector<Json> unresolved = Of(report, "unresolved-library");
  ASSERT_EQ(unresolved.size(), 1u) << report.dump(1);
  // The symbol it would bind is counted in the finding, not reported apart.
  EXPECT_TRUE(Of(report, "undefined-symbol").empty()) << report.dump(1);
  EXPECT_EQ(unresolved[0]["unbound_symbols"], Json::array({"foo"}));
  EXPECT_THAT(unresolved[0]["hint"].get<std::string>(),
              HasSubstr("libfoo.so.1 is in libfoo1, a Depends of foo-tools: audit them together"));
}

// libfoo1 0.9-1 is installed (dpkg --root) and defines foo and foo_old; 1.0-1 dropped foo_old,
// which the program still calls: the installed copy is hidden, and the finding names it.
TEST_F(MissingDepends, ASymbolTheNewVersionDroppedNamesTheInstalledCopy) {
  ASSERT_EQ(
      RunCommand("cd " + t_ / "src" +
                 " && printf 'int foo(void) { return 1; }\\nint foo_old(void) { return 0; }\\n' > old.c"
                 " && gcc -shared -fPIC -o old/libfoo.so.1 -Wl,-soname,libfoo.so.1 old.c 2>/dev/null || "
                 "(mkdir -p old && gcc -shared -fPIC -o old/libfoo.so.1 -Wl,-soname,libfoo.so.1 old.c)"
                 " && printf 'int foo_old(void);\\nint main(void) { return foo_old(); }\\n' > main_old.c"
                 " && gcc -o foo main_old.c old/libfoo.so.1"),
      0);
  const std::string old_lib =
      Deb("libfoo1", "", "mkdir -p $D/" + kLib + " && cp old/libfoo.so.1 $D/" + kLib + "/", "0.9-1");
  std::string out;
  ASSERT_EQ(
      RunCommand("dpkg --root=" + t_ / "root" + " --force-not-root --force-depends -i " + old_lib + " 2>&1",
                 &out),
      0)
      << out;
  const std::string tools =
      Deb("foo-tools", "Depends: libfoo1\n", "mkdir -p $D/usr/bin && cp foo $D/usr/bin/");
  const Json report = Audit(Library() + " " + tools);
  const std::vector<Json> undefined = Of(report, "undefined-symbol");
  ASSERT_EQ(undefined.size(), 1u) << report.dump(1);
  const Json& f = undefined[0];
  EXPECT_EQ(f["symbol"], "foo_old");
  EXPECT_EQ(f["replaced"]["package"], "libfoo1");
  EXPECT_EQ(f["replaced"]["file"], "/" + kLib + "/libfoo.so.1");
  EXPECT_EQ(f["replaced"]["version"], "0.9-1");
}

// Underlinking: cos is called and libm not linked. With the base's libm.so.6 not given as a
// PATH, the hint names it all the same.
TEST(BaseProviders, AnUnderlinkedSymbolNamesTheBaseLibraryThatDefinesIt) {
  TempDir t;
  ASSERT_EQ(RunCommand("cd " + t.path() +
                       " && printf 'double cos(double);\\ndouble f(double x) { return cos(x); }\\n' > f.c"
                       " && gcc -shared -fPIC -fno-builtin -o libunder.so f.c"),
            0);
  std::string out;
  EXPECT_EQ(RunCommand(std::string(ROCM_AUDIT_BINARY) +
                           " --no-progress --format json --files none --root / " + t / "libunder.so",
                       &out),
            1)
      << out;
  const std::vector<Json> undefined = Of(Json::parse(out), "undefined-symbol");
  ASSERT_EQ(undefined.size(), 1u) << out;
  EXPECT_EQ(undefined[0]["symbol"], "cos");
  ASSERT_EQ(undefined[0]["providers"].size(), 1u) << out;
  EXPECT_TRUE(undefined[0]["providers"][0]["file"].get<std::string>().ends_with("/libm.so.6")) << out;
}

}  // namespace
}  // namespace rocm_audit::testing
