// One test per ld.so search rule (glibc elf/dl-load.c), each on a tree the real toolchain
// builds. Every tree is audited under --root so the host's libraries never interfere;
// the libraries are -nostdlib so they need nothing the root does not hold.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>

#include "audit/fs/path.h"
#include "tests/support/core_audit.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

// libB.so defines b(); libA.so calls it.
const char* kB = "'int b(void) { return 1; }'";
const char* kA = "'int b(void); int a(void) { return b(); }'";

bool Contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

TEST(LoaderRules, RpathOfTheRequesterComesBeforeLibraryPath) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), std::string() + "mklib r1/libB.so libB.so " + kB +
                                      " -nostdlib\n"
                                      "mklib lp/libB.so libB.so " +
                                      kB +
                                      " -nostdlib\n"
                                      "mklib a/libA.so libA.so " +
                                      kA + " -nostdlib -Lr1 -l:libB.so -Wl,--disable-new-dtags,-rpath,/r1"));
  CoreAudit r({t / "a/libA.so"}, {t.path()}, {t / "lp"});
  EXPECT_EQ(r.Closure(t / "a/libA.so"), std::vector<std::string>{"/r1/libB.so"});
}

TEST(LoaderRules, LibraryPathComesBeforeRunpath) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), std::string() + "mklib r1/libB.so libB.so " + kB +
                                      " -nostdlib\n"
                                      "mklib lp/libB.so libB.so " +
                                      kB +
                                      " -nostdlib\n"
                                      "mklib a/libA.so libA.so " +
                                      kA + " -nostdlib -Lr1 -l:libB.so -Wl,--enable-new-dtags,-rpath,/r1"));
  CoreAudit r({t / "a/libA.so"}, {t.path()}, {t / "lp"});
  EXPECT_EQ(r.Closure(t / "a/libA.so"), std::vector<std::string>{"/lp/libB.so"});
}

TEST(LoaderRules, RunpathIsUsedWhenNothingEarlierHasTheLibrary) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), std::string() + "mklib r1/libB.so libB.so " + kB +
                                      " -nostdlib\n"
                                      "mklib a/libA.so libA.so " +
                                      kA + " -nostdlib -Lr1 -l:libB.so -Wl,--enable-new-dtags,-rpath,/r1"));
  CoreAudit r({t / "a/libA.so"}, {t.path()});
  EXPECT_EQ(r.Closure(t / "a/libA.so"), std::vector<std::string>{"/r1/libB.so"});
}

// An object with both tags: ld.so drops DT_RPATH when DT_RUNPATH is present. GNU ld never
// writes both, so the test links a DT_AUXILIARY string entry and retags it DT_RUNPATH.
TEST(LoaderRules, RpathIsIgnoredWhenTheObjectHasRunpath) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), std::string() + "mklib r1/libB.so libB.so " + kB +
                                      " -nostdlib\n"
                                      "mklib a/libA.so libA.so " +
                                      kA +
                                      " -nostdlib -Lr1 -l:libB.so "
                                      "-Wl,--disable-new-dtags,-rpath,/r1 -Wl,-f,/nowhere"));
  std::string path = t / "a/libA.so";
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string aux("\xfd\xff\xff\x7f\x00\x00\x00\x00", 8);  // DT_AUXILIARY, 64-bit LE
  size_t at = bytes.find(aux);
  ASSERT_NE(at, std::string::npos);
  bytes.replace(at, 8, std::string("\x1d\x00\x00\x00\x00\x00\x00\x00", 8));  // DT_RUNPATH
  std::ofstream(path, std::ios::binary) << bytes;

  CoreAudit r({path}, {t.path()});
  EXPECT_TRUE(r.Closure(path).empty());
  EXPECT_EQ(r.Unresolved(path), std::vector<std::string>{"libB.so"});
  const UnresolvedLibrary* u = r.UnresolvedNamed(path, "libB.so");
  ASSERT_NE(u, nullptr);
  for (const SearchStep& step : u->resolution.searched)
    EXPECT_EQ(step.source.find("RPATH"), std::string::npos) << step.source;
}

// An ancestor with both tags: glibc drops its DT_RPATH when reading its dynamic section
// (get-dynamic-info.h), so a descendant without RUNPATH does not inherit it either. libM has
// RPATH /r1 (ignored) and RUNPATH /r2 (which finds libA); libA needs libB, only in /r1.
TEST(LoaderRules, AncestorWithRpathAndRunpathPassesNoRpathDown) {
  TempDir t;
  ASSERT_TRUE(
      BuildTree(t.path(), std::string() + "mklib r1/libB.so libB.so " + kB +
                              " -nostdlib\n"
                              "mklib r2/libA.so libA.so " +
                              kA +
                              " -nostdlib -Lr1 -l:libB.so\n"
                              "mklib m/libM.so libM.so 'int a(void); int m(void) { return a(); }' "
                              "-nostdlib -Lr2 -l:libA.so -Wl,--disable-new-dtags,-rpath,/r1 -Wl,-f,/r2"));
  std::string path = t / "m/libM.so";
  std::string bytes = ReadAll(path);
  const std::string aux("\xfd\xff\xff\x7f\x00\x00\x00\x00", 8);  // DT_AUXILIARY "/r2"
  size_t at = bytes.find(aux);
  ASSERT_NE(at, std::string::npos);
  bytes.replace(at, 8, std::string("\x1d\x00\x00\x00\x00\x00\x00\x00", 8));  // -> DT_RUNPATH
  WriteAll(path, bytes);

  CoreAudit r({path}, {t.path()});
  EXPECT_EQ(r.Closure(path), std::vector<std::string>{"/r2/libA.so"});
  EXPECT_EQ(r.Unresolved(path), std::vector<std::string>{"libB.so"});
  const UnresolvedLibrary* u = r.UnresolvedNamed(path, "libB.so");
  ASSERT_NE(u, nullptr);
  for (const SearchStep& step : u->resolution.searched)
    EXPECT_EQ(step.source.find("RPATH"), std::string::npos) << step.source;
}

// glibc knows a loaded object by device and inode (_dl_map_object_from_fd), not by path: a
// hard link under another name is the object already loaded, one map with two names.
TEST(LoaderRules, HardLinkIsTheObjectAlreadyLoaded) {
  TempDir t;
  // libM needs libB.so and libC.so; once it is linked, r1/libC.so becomes a hard link to
  // r1/libB.so.
  ASSERT_TRUE(BuildTree(t.path(), std::string() + "mklib r1/libB.so libB.so " + kB +
                                      " -nostdlib\n"
                                      "mklib stub/libC.so libC.so " +
                                      kB +
                                      " -nostdlib\n"
                                      "mklib m/libM.so libM.so 'int b(void); int m(void) { return b(); }' "
                                      "-nostdlib -Wl,--no-as-needed -Lr1 -l:libB.so -Lstub -l:libC.so "
                                      "-Wl,-rpath,/r1\n"
                                      "ln r1/libB.so r1/libC.so"));
  CoreAudit r({t / "m/libM.so"}, {t.path()});
  EXPECT_EQ(r.Closure(t / "m/libM.so"), std::vector<std::string>{"/r1/libB.so"});
  EXPECT_TRUE(r.Unresolved(t / "m/libM.so").empty());
  const LoadFacts* l = r.LoadOf(t / "m/libM.so");
  ASSERT_NE(l, nullptr);
  ASSERT_EQ(l->closure.objects.size(), 2u);
  EXPECT_EQ(l->closure.objects[1].names, (std::vector<std::string>{"libB.so", "libC.so"}));
}

TEST(LoaderRules, RpathIsInheritedFromTheLoaderChain) {
  TempDir t;
  ASSERT_TRUE(BuildTree(
      t.path(),
      std::string() + "mklib r1/libB.so libB.so " + kB +
          " -nostdlib\n"
          "mklib r1/libA.so libA.so " +
          kA +
          " -nostdlib -Lr1 -l:libB.so\n"
          "mklib m/libM.so libM.so 'int a(void); int m(void) { return a(); }' -nostdlib -Lr1 -l:libA.so "
          "-Wl,--disable-new-dtags,-rpath,/r1"));
  CoreAudit r({t / "m/libM.so"}, {t.path()});
  EXPECT_EQ(r.Closure(t / "m/libM.so"), (std::vector<std::string>{"/r1/libA.so", "/r1/libB.so"}));
}

TEST(LoaderRules, InheritedRpathIsNotUsedWhenTheRequesterHasRunpath) {
  TempDir t;
  ASSERT_TRUE(BuildTree(
      t.path(),
      std::string() + "mklib r1/libB.so libB.so " + kB +
          " -nostdlib\n"
          "mklib r2/libA.so libA.so " +
          kA +
          " -nostdlib -Lr1 -l:libB.so -Wl,--enable-new-dtags,-rpath,/elsewhere\n"
          "mklib m/libM.so libM.so 'int a(void); int m(void) { return a(); }' -nostdlib -Lr2 -l:libA.so "
          "-Wl,--disable-new-dtags,-rpath,/r1:/r2"));
  CoreAudit r({t / "m/libM.so"}, {t.path()});
  EXPECT_EQ(r.Closure(t / "m/libM.so"), std::vector<std::string>{"/r2/libA.so"});
  EXPECT_EQ(r.Unresolved(t / "m/libM.so"), std::vector<std::string>{"libB.so"});
}

TEST(LoaderRules, RunpathIsNotInherited) {
  TempDir t;
  ASSERT_TRUE(BuildTree(
      t.path(),
      std::string() + "mklib r1/libB.so libB.so " + kB +
          " -nostdlib\n"
          "mklib r1/libA.so libA.so " +
          kA +
          " -nostdlib -Lr1 -l:libB.so\n"
          "mklib m/libM.so libM.so 'int a(void); int m(void) { return a(); }' -nostdlib -Lr1 -l:libA.so "
          "-Wl,--enable-new-dtags,-rpath,/r1"));
  CoreAudit r({t / "m/libM.so"}, {t.path()});
  EXPECT_EQ(r.Closure(t / "m/libM.so"), std::vector<std::string>{"/r1/libA.so"});
  EXPECT_EQ(r.Unresolved(t / "m/libM.so"), std::vector<std::string>{"libB.so"});
}

TEST(LoaderRules, InheritedRpathExpandsOriginOfTheObjectThatOwnsIt) {
  TempDir t;
  ASSERT_TRUE(BuildTree(
      t.path(),
      std::string() + "mklib m/deps/libB.so libB.so " + kB +
          " -nostdlib\n"
          "mklib m/deps/libA.so libA.so " +
          kA +
          " -nostdlib -Lm/deps -l:libB.so\n"
          "mklib m/libM.so libM.so 'int a(void); int m(void) { return a(); }' -nostdlib -Lm/deps -l:libA.so "
          "-Wl,--disable-new-dtags,-rpath,'$ORIGIN/deps'"));
  CoreAudit r({t / "m/libM.so"}, {t.path()});
  EXPECT_EQ(r.Closure(t / "m/libM.so"), (std::vector<std::string>{"/m/deps/libA.so", "/m/deps/libB.so"}));
}

// libtree's 07_origin_is_relative_to_symlink_location_not_realpath.
TEST(LoaderRules, OriginIsTheDirectoryWhereTheObjectWasFoundNotItsRealPath) {
  TempDir t;
  ASSERT_TRUE(BuildTree(
      t.path(),
      std::string() + "mklib app/lib/libB.so libB.so " + kB +
          " -nostdlib\n"
          "mklib store/libA.so libA.so " +
          kA +
          " -nostdlib -Lapp/lib -l:libB.so -Wl,--enable-new-dtags,-rpath,'$ORIGIN'\n"
          "ln -s ../../store/libA.so app/lib/libA.so\n"
          "mklib app/libM.so libM.so 'int a(void); int m(void) { return a(); }' -nostdlib -Lstore -l:libA.so "
          "-Wl,--enable-new-dtags,-rpath,'$ORIGIN/lib'"));
  CoreAudit r({t / "app/libM.so"}, {t.path()});
  EXPECT_EQ(r.Closure(t / "app/libM.so"), (std::vector<std::string>{"/app/lib/libA.so", "/app/lib/libB.so"}));
  // Audited through the symlink itself: $ORIGIN is the link's directory as well.
  CoreAudit direct({t / "app/lib/libA.so"}, {t.path()});
  EXPECT_EQ(direct.Closure(t / "app/lib/libA.so"), std::vector<std::string>{"/app/lib/libB.so"});
}

TEST(LoaderRules, CandidateOfTheWrongElfClassIsSkipped) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), std::string() + "mklib r1/libB.so libB.so " + kB +
                                      " -nostdlib -m32\n"
                                      "mklib r2/libB.so libB.so " +
                                      kB +
                                      " -nostdlib\n"
                                      "mklib a/libA.so libA.so " +
                                      kA +
                                      " -nostdlib -Lr2 -l:libB.so -Wl,--enable-new-dtags,-rpath,/r1:/r2"));
  CoreAudit r({t / "a/libA.so"}, {t.path()});
  EXPECT_EQ(r.Closure(t / "a/libA.so"), std::vector<std::string>{"/r2/libB.so"});
}

TEST(LoaderRules, CandidateForAnotherMachineIsSkipped) {
  TempDir t;
  ASSERT_TRUE(BuildTree(
      t.path(),
      std::string() +
          "mkdir -p r1 && printf '%s\\n' '--- !ELF' 'FileHeader:' '  Class: ELFCLASS64' '  Data: ELFDATA2LSB'"
          " '  Type: ET_DYN' '  Machine: EM_AARCH64' > arm.yaml && yaml2obj-19 arm.yaml -o r1/libB.so\n"
          "mklib r2/libB.so libB.so " +
          kB +
          " -nostdlib\n"
          "mklib a/libA.so libA.so " +
          kA + " -nostdlib -Lr2 -l:libB.so -Wl,--enable-new-dtags,-rpath,/r1:/r2"));
  CoreAudit r({t / "a/libA.so"}, {t.path()});
  EXPECT_EQ(r.Closure(t / "a/libA.so"), std::vector<std::string>{"/r2/libB.so"});
}

TEST(LoaderRules, CandidateThatIsNotElfStopsTheSearch) {
  TempDir t;
  ASSERT_TRUE(BuildTree(
      t.path(), std::string() +
                    "mkdir -p r1 && printf '/* GNU ld script\\n   Use the shared library, but some functions "
                    "are only in\\n   the static library. */\\nGROUP ( libB.so.1 )\\n' > r1/libB.so\n"
                    "mklib r2/libB.so libB.so " +
                    kB +
                    " -nostdlib\n"
                    "mklib a/libA.so libA.so " +
                    kA + " -nostdlib -Lr2 -l:libB.so -Wl,--enable-new-dtags,-rpath,/r1:/r2"));
  CoreAudit r({t / "a/libA.so"}, {t.path()});
  const UnresolvedLibrary* u = r.UnresolvedNamed(t / "a/libA.so", "libB.so");
  ASSERT_NE(u, nullptr);
  EXPECT_NE(u->resolution.error.find("invalid ELF header"), std::string::npos) << u->resolution.error;
}

TEST(LoaderRules, DefaultDirectoriesAreSearchedInsideTheRoot) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), std::string() + "mklib usr/lib/x86_64-linux-gnu/libB.so libB.so " + kB +
                                      " -nostdlib\n"
                                      "mklib a/libA.so libA.so " +
                                      kA + " -nostdlib -Lusr/lib/x86_64-linux-gnu -l:libB.so"));
  CoreAudit r({t / "a/libA.so"}, {t.path()});
  EXPECT_EQ(r.Closure(t / "a/libA.so"), std::vector<std::string>{"/usr/lib/x86_64-linux-gnu/libB.so"});
}

TEST(LoaderRules, NodeflibSkipsTheDefaultDirectories) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), std::string() + "mklib usr/lib/libB.so libB.so " + kB +
                                      " -nostdlib\n"
                                      "mklib a/libA.so libA.so " +
                                      kA + " -nostdlib -Lusr/lib -l:libB.so -Wl,-z,nodefaultlib"));
  CoreAudit r({t / "a/libA.so"}, {t.path()});
  EXPECT_TRUE(r.Closure(t / "a/libA.so").empty());
  EXPECT_EQ(r.Unresolved(t / "a/libA.so"), std::vector<std::string>{"libB.so"});
}

// --default-dirs names the target loader's built-in directories; an empty list has none.
TEST(LoaderRules, DefaultDirectoriesCanBeGiven) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), std::string() + "mklib usr/lib/x86_64-linux-gnu/libB.so libB.so " + kB +
                                      " -nostdlib\n"
                                      "mklib sys/libB.so libB.so " +
                                      kB +
                                      " -nostdlib\n"
                                      "mklib a/libA.so libA.so " +
                                      kA + " -nostdlib -Lsys -l:libB.so"));
  CoreAudit none({t / "a/libA.so"}, {t.path()}, {}, "/etc/ld.so.conf", std::vector<std::string>{});
  EXPECT_EQ(none.Unresolved(t / "a/libA.so"), std::vector<std::string>{"libB.so"});
  CoreAudit sys({t / "a/libA.so"}, {t.path()}, {}, "/etc/ld.so.conf", std::vector<std::string>{"/sys"});
  EXPECT_EQ(sys.Closure(t / "a/libA.so"), std::vector<std::string>{"/sys/libB.so"});
  CoreAudit debian({t / "a/libA.so"}, {t.path()});
  EXPECT_EQ(debian.Closure(t / "a/libA.so"), std::vector<std::string>{"/usr/lib/x86_64-linux-gnu/libB.so"});
}

// A Nix glibc's ld.so searches only its own lib/: the interpreter names it.
TEST(LoaderRules, InterpreterInAStorePathBringsItsOwnDefaultDirectory) {
  TempDir t;
  const std::string glibc = "/nix/store/0123456789abcdfghijklmnpqrsvwxyz-glibc-2.40/lib";
  ASSERT_TRUE(BuildTree(t.path(),
                        std::string() + "mklib usr/lib/x86_64-linux-gnu/libB.so libB.so " + kB +
                            " -nostdlib\n"
                            "mklib ." +
                            glibc +
                            "/libC.so libC.so 'int c(void) { return 3; }' -nostdlib\n"
                            "mklib lib/libB.so libB.so " +
                            kB +
                            " -nostdlib\n"
                            "mkexe bin/app 'int b(void); int c(void); int main(void) { return b() + c(); }' "
                            "-nostdlib -Llib -L." +
                            glibc +
                            " -l:libB.so -l:libC.so "
                            "-Wl,--dynamic-linker=" +
                            glibc + "/ld-linux-x86-64.so.2 -Wl,-e,main"));
  CoreAudit r({t / "bin/app"}, {t.path()});
  // libC from the interpreter's directory; libB is only in Debian's directories: not searched.
  EXPECT_EQ(r.Closure(t / "bin/app"), std::vector<std::string>{glibc + "/libC.so"});
  EXPECT_EQ(r.Unresolved(t / "bin/app"), std::vector<std::string>{"libB.so"});
}

TEST(LoaderRules, LdSoConfDirectoriesAndIncludeGlobsAreSearched) {
  TempDir t;
  ASSERT_TRUE(BuildTree(
      t.path(), std::string() +
                    "mkdir -p etc/ld.so.conf.d && echo 'include ld.so.conf.d/*.conf' > etc/ld.so.conf\n"
                    "printf '# ROCm\\n/opt/rocm/lib\\n' > etc/ld.so.conf.d/rocm.conf\n"
                    "mklib opt/rocm/lib/libB.so libB.so " +
                    kB +
                    " -nostdlib\n"
                    "mklib a/libA.so libA.so " +
                    kA + " -nostdlib -Lopt/rocm/lib -l:libB.so"));
  CoreAudit r({t / "a/libA.so"}, {t.path()});
  EXPECT_EQ(r.Closure(t / "a/libA.so"), std::vector<std::string>{"/opt/rocm/lib/libB.so"});
}

TEST(LoaderRules, NodeflibStillUsesLdSoConfDirectoriesOutsideTheDefaults) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), std::string() +
                                      "mkdir -p etc && echo /opt/rocm/lib > etc/ld.so.conf\n"
                                      "mklib opt/rocm/lib/libB.so libB.so " +
                                      kB +
                                      " -nostdlib\n"
                                      "mklib a/libA.so libA.so " +
                                      kA + " -nostdlib -Lopt/rocm/lib -l:libB.so -Wl,-z,nodefaultlib"));
  CoreAudit r({t / "a/libA.so"}, {t.path()});
  EXPECT_EQ(r.Closure(t / "a/libA.so"), std::vector<std::string>{"/opt/rocm/lib/libB.so"});
}

TEST(LoaderRules, AbsoluteSymlinksResolveInsideTheRoot) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), std::string() + "mklib usr/lib/libB.so.1 libB.so.1 " + kB +
                                      " -nostdlib\n"
                                      "mkdir -p r1 && ln -s /usr/lib/libB.so.1 r1/libB.so.1\n"
                                      "mklib a/libA.so libA.so " +
                                      kA +
                                      " -nostdlib -Lusr/lib -l:libB.so.1 -Wl,--enable-new-dtags,-rpath,/r1"));
  CoreAudit r({t / "a/libA.so"}, {t.path()});
  EXPECT_EQ(r.Closure(t / "a/libA.so"), std::vector<std::string>{"/r1/libB.so.1"});
}

// --root DESTDIR --root SYSTEM: a staged package resolved as once installed on SYSTEM.
TEST(LoaderRules, RootLayersResolveAStagedTreeOverTheSystem) {
  TempDir t;
  ASSERT_TRUE(BuildTree(
      t.path(),
      std::string() + "mklib system/usr/lib/x86_64-linux-gnu/libB.so libB.so " + kB +
          " -nostdlib\n"
          "mklib destdir/opt/rocm/lib/libC.so libC.so 'int c(void) { return 3; }' -nostdlib\n"
          "mklib destdir/opt/rocm/lib/libA.so libA.so 'int b(void); int c(void); int a(void) { return b() + "
          "c(); }' "
          "-nostdlib -Lsystem/usr/lib/x86_64-linux-gnu -Ldestdir/opt/rocm/lib -l:libB.so -l:libC.so "
          "-Wl,--enable-new-dtags,-rpath,/opt/rocm/lib"));
  CoreAudit r({t / "destdir"}, {t / "destdir", t / "system"});
  EXPECT_TRUE(r.Unresolved(t / "destdir/opt/rocm/lib/libA.so").empty());
  EXPECT_EQ(r.Closure(t / "destdir/opt/rocm/lib/libA.so"),
            (std::vector<std::string>{"/usr/lib/x86_64-linux-gnu/libB.so", "/opt/rocm/lib/libC.so"}));
  EXPECT_TRUE(r.Undefined().empty());
  // The staged tree alone cannot know libB: that is what the second layer is for.
  CoreAudit alone({t / "destdir"}, {t / "destdir"});
  EXPECT_EQ(alone.Unresolved(t / "destdir/opt/rocm/lib/libA.so"), std::vector<std::string>{"libB.so"});
}

// The package-build hook: a staged library built normally (libc and all) over this host.
TEST(LoaderRules, StagedPackageOverTheHostFindsTheSystemLibraries) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
                        "mklib destdir/usr/lib/x86_64-linux-gnu/libstaged.so.1 libstaged.so.1 "
                        "'#include <stdio.h>\nint staged(void) { return puts(\"x\"); }'"));
  CoreAudit r({t / "destdir"}, {t / "destdir", "/"});
  std::string lib = t / "destdir/usr/lib/x86_64-linux-gnu/libstaged.so.1";
  EXPECT_TRUE(r.Unresolved(lib).empty());
  auto closure = r.Closure(lib);
  EXPECT_TRUE(Contains(closure, "/lib/x86_64-linux-gnu/libc.so.6") ||
              Contains(closure, "/usr/lib/x86_64-linux-gnu/libc.so.6"))
      << closure.size();
  EXPECT_TRUE(r.Undefined().empty());
  EXPECT_TRUE(r.MissingVersions().empty());
}

// glibc's _dl_map_object skips failed (faked) maps when it matches a name: libB searches
// again with its own RUNPATH and loads libX, which libA could not find. ld.so's trace mode
// prints both "libX.so => not found" and "libX.so => /hidden/libX.so".
TEST(LoaderRules, FailedLookupIsSearchedAgainByALaterRequester) {
  TempDir t;
  ASSERT_TRUE(BuildTree(
      t.path(), std::string() +
                    "mklib hidden/libX.so libX.so 'int x(void) { return 1; }' -nostdlib\n"
                    "mklib a/libA.so libA.so 'int x(void); int a(void) { return x(); }' "
                    "-nostdlib -Lhidden -l:libX.so\n"
                    "mklib b/libB.so libB.so 'int x(void); int b(void) { return x(); }' "
                    "-nostdlib -Lhidden -l:libX.so -Wl,--enable-new-dtags,-rpath,/hidden\n"
                    "mklib m/libM.so libM.so 'int a(void); int b(void); int m(void) { return a() + b(); }' "
                    "-nostdlib -La -Lb -l:libA.so -l:libB.so -Wl,--enable-new-dtags,-rpath,/a:/b"));
  CoreAudit r({t / "m/libM.so"}, {t.path()});
  EXPECT_EQ(r.Closure(t / "m/libM.so"),
            (std::vector<std::string>{"/a/libA.so", "/b/libB.so", "/hidden/libX.so"}));
  const UnresolvedLibrary* u = r.UnresolvedNamed(t / "m/libM.so", "libX.so");
  ASSERT_NE(u, nullptr);
  // Only libA failed; libB found it.
  const LoadFacts* load = r.LoadOf(t / "m/libM.so");
  ASSERT_NE(load, nullptr);
  ASSERT_EQ(u->needed_by.size(), 1u);
  EXPECT_EQ(BaseName(load->closure.objects[u->needed_by[0]].path), "libA.so");
  // x() binds: the global scope holds libX, loaded for libB.
  EXPECT_TRUE(r.Undefined().empty());
}

TEST(LoaderRules, LoadedObjectIsReusedBySoname) {
  TempDir t;
  // libA needs "libX.so"; the installed libX.so has SONAME libfoo.so.2. libY needs
  // "libfoo.so.2", a name no file has: ld.so matches the loaded libX.so by its soname.
  ASSERT_TRUE(BuildTree(
      t.path(), std::string() + "mklib link/libX.so libX.so 'int foo(void) { return 2; }' -nostdlib\n"
                                "mklib link/libfoo.so.2 libfoo.so.2 'int foo(void) { return 2; }' -nostdlib\n"
                                "mklib r/libY.so libY.so 'int foo(void); int y(void) { return foo(); }' "
                                "-nostdlib -Llink -l:libfoo.so.2\n"
                                "mklib r/libX.so libfoo.so.2 'int foo(void) { return 2; }' -nostdlib\n"
                                "mklib a/libA.so libA.so 'int y(void); int foo(void); int a(void) { return "
                                "y() + foo(); }' -nostdlib "
                                "-Llink -Lr -l:libX.so -l:libY.so -Wl,--enable-new-dtags,-rpath,/r\n"
                                "rm -r link"));
  CoreAudit r({t / "a/libA.so"}, {t.path()});
  EXPECT_TRUE(r.Unresolved(t / "a/libA.so").empty());
  EXPECT_EQ(r.Closure(t / "a/libA.so"), (std::vector<std::string>{"/r/libX.so", "/r/libY.so"}));
}

TEST(LoaderRules, ClosureIsInBreadthFirstLoadOrder) {
  TempDir t;
  ASSERT_TRUE(BuildTree(
      t.path(),
      std::string() +
          "mklib r/libC.so libC.so 'int c(void) { return 3; }' -nostdlib\n"
          "mklib r/libD.so libD.so 'int d(void) { return 4; }' -nostdlib\n"
          "mklib r/libA.so libA.so 'int c(void); int a(void) { return c(); }' -nostdlib -Lr -l:libC.so "
          "-Wl,-rpath,/r\n"
          "mklib r/libB.so libB.so 'int d(void); int b(void) { return d(); }' -nostdlib -Lr -l:libD.so "
          "-Wl,-rpath,/r\n"
          "mklib m/libM.so libM.so 'int a(void); int b(void); int m(void) { return a() + b(); }' -nostdlib "
          "-Lr -l:libA.so -l:libB.so -Wl,--enable-new-dtags,-rpath,/r"));
  CoreAudit r({t / "m/libM.so"}, {t.path()});
  EXPECT_EQ(r.Closure(t / "m/libM.so"),
            (std::vector<std::string>{"/r/libA.so", "/r/libB.so", "/r/libC.so", "/r/libD.so"}));
}

TEST(LoaderRules, NeededNameWithASlashIsOpenedDirectly) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), std::string() +
                                      "mkdir -p sub && printf 'int b(void) { return 1; }' > b.c && $CC "
                                      "-shared -fPIC -nostdlib -o sub/libB.so b.c\n"
                                      "mklib a/libA.so libA.so " +
                                      kA + " -nostdlib \"$PWD/sub/libB.so\""));
  CoreAudit r({t / "a/libA.so"}, {});
  EXPECT_EQ(r.Closure(t / "a/libA.so"), std::vector<std::string>{t / "sub/libB.so"});
}

}  // namespace
}  // namespace rocm_audit::testing
