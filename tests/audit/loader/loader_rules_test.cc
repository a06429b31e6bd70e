// One scenario per ld.so search rule (glibc elf/dl-load.c), each a tree the real toolchain
// builds, audited and held to what ld.so would map, as libtree's per-scenario fixtures are.
// Every tree is audited under --root so the host's libraries never interfere, unless the
// scenario says otherwise; the libraries are -nostdlib so they need nothing the root does not
// hold. ctest lists each scenario as LoaderRules.Scenario/<name>.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <ostream>

#include "audit/fs/path.h"
#include "tests/support/core_audit.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::AnyOfArray;
using ::testing::Contains;
using ::testing::Each;
using ::testing::Field;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

using Names = std::vector<std::string>;

// What the search for one DT_NEEDED name that stays unresolved must show.
struct Search {
  std::string name;          // the unresolved name; "" when the audit checks no search
  bool skips_rpath = false;  // no step of the search is an RPATH directory
  std::string error;         // the search's error says this
  Names needed_by;           // the base names of the objects that need it, when given
};

// One audit of a scenario's tree and what it must find for one file. Paths are below the
// tree; expected display paths are root-relative, and "$TREE" stands for the tree's host path.
struct Audit {
  std::string file;                                // the file whose load is checked
  Names paths;                                     // what is audited; none: `file`
  Names roots = {"."};                             // "." the tree, "/" the host; none: no root
  Names library_path;                              // below the tree
  std::optional<Names> default_dirs;               // unset: follow the interpreter
  std::optional<Names> closure;                    // exactly these, in load order
  Names closure_has_one_of;                        // at least one of these is in the closure
  std::optional<Names> unresolved;                 // exactly these DT_NEEDED names
  std::optional<std::vector<Names>> loaded_names;  // every name each loaded object answers to
  Search search;
  bool all_bound = false;  // no undefined symbol and no missing version in any audited file
};

struct LoaderScenario {
  const char* name;
  // A fixtures/lib.sh script run in the tree; $A is the source of a libA calling b(), $B of a
  // libB defining it.
  const char* tree;
  // A library whose DT_AUXILIARY entry (linked with -Wl,-f) becomes DT_RUNPATH, giving it both
  // DT_RPATH and DT_RUNPATH, which GNU ld never writes.
  const char* auxiliary_to_runpath = "";
  std::vector<Audit> audits;
};

void PrintTo(const LoaderScenario& s, std::ostream* os) { *os << s.name; }

const LoaderScenario kScenarios[] = {
    {.name = "RpathOfTheRequesterComesBeforeLibraryPath",
     .tree = R"(
mklib r1/libB.so libB.so "$B" -nostdlib
mklib lp/libB.so libB.so "$B" -nostdlib
mklib a/libA.so libA.so "$A" -nostdlib -Lr1 -l:libB.so -Wl,--disable-new-dtags,-rpath,/r1)",
     .audits = {{.file = "a/libA.so", .library_path = {"lp"}, .closure = Names{"/r1/libB.so"}}}},

    {.name = "LibraryPathComesBeforeRunpath",
     .tree = R"(
mklib r1/libB.so libB.so "$B" -nostdlib
mklib lp/libB.so libB.so "$B" -nostdlib
mklib a/libA.so libA.so "$A" -nostdlib -Lr1 -l:libB.so -Wl,--enable-new-dtags,-rpath,/r1)",
     .audits = {{.file = "a/libA.so", .library_path = {"lp"}, .closure = Names{"/lp/libB.so"}}}},

    {.name = "RunpathIsUsedWhenNothingEarlierHasTheLibrary",
     .tree = R"(
mklib r1/libB.so libB.so "$B" -nostdlib
mklib a/libA.so libA.so "$A" -nostdlib -Lr1 -l:libB.so -Wl,--enable-new-dtags,-rpath,/r1)",
     .audits = {{.file = "a/libA.so", .closure = Names{"/r1/libB.so"}}}},

    // An object with both tags: ld.so drops DT_RPATH when DT_RUNPATH is present.
    {.name = "RpathIsIgnoredWhenTheObjectHasRunpath",
     .tree = R"(
mklib r1/libB.so libB.so "$B" -nostdlib
mklib a/libA.so libA.so "$A" -nostdlib -Lr1 -l:libB.so -Wl,--disable-new-dtags,-rpath,/r1 -Wl,-f,/nowhere)",
     .auxiliary_to_runpath = "a/libA.so",
     .audits = {{.file = "a/libA.so",
                 .closure = Names{},
                 .unresolved = Names{"libB.so"},
                 .search = {.name = "libB.so", .skips_rpath = true}}}},

    // An ancestor with both tags: glibc drops its DT_RPATH when reading its dynamic section
    // (get-dynamic-info.h), so a descendant without RUNPATH does not inherit it either. libM
    // has RPATH /r1 (ignored) and RUNPATH /r2 (which finds libA); libA needs libB, only in /r1.
    {.name = "AncestorWithRpathAndRunpathPassesNoRpathDown",
     .tree = R"(
mklib r1/libB.so libB.so "$B" -nostdlib
mklib r2/libA.so libA.so "$A" -nostdlib -Lr1 -l:libB.so
mklib m/libM.so libM.so 'int a(void); int m(void) { return a(); }' -nostdlib -Lr2 -l:libA.so \
  -Wl,--disable-new-dtags,-rpath,/r1 -Wl,-f,/r2)",
     .auxiliary_to_runpath = "m/libM.so",
     .audits = {{.file = "m/libM.so",
                 .closure = Names{"/r2/libA.so"},
                 .unresolved = Names{"libB.so"},
                 .search = {.name = "libB.so", .skips_rpath = true}}}},

    // glibc knows a loaded object by device and inode (_dl_map_object_from_fd), not by path: a
    // hard link under another name is the object already loaded, one map with two names.
    // libM needs libB.so and libC.so; once it is linked, r1/libC.so becomes a hard link to
    // r1/libB.so.
    {.name = "HardLinkIsTheObjectAlreadyLoaded",
     .tree = R"(
mklib r1/libB.so libB.so "$B" -nostdlib
mklib stub/libC.so libC.so "$B" -nostdlib
mklib m/libM.so libM.so 'int b(void); int m(void) { return b(); }' \
  -nostdlib -Wl,--no-as-needed -Lr1 -l:libB.so -Lstub -l:libC.so -Wl,-rpath,/r1
ln r1/libB.so r1/libC.so)",
     .audits = {{.file = "m/libM.so",
                 .closure = Names{"/r1/libB.so"},
                 .unresolved = Names{},
                 .loaded_names = std::vector<Names>{{"libB.so", "libC.so"}}}}},

    {.name = "RpathIsInheritedFromTheLoaderChain",
     .tree = R"(
mklib r1/libB.so libB.so "$B" -nostdlib
mklib r1/libA.so libA.so "$A" -nostdlib -Lr1 -l:libB.so
mklib m/libM.so libM.so 'int a(void); int m(void) { return a(); }' -nostdlib -Lr1 -l:libA.so \
  -Wl,--disable-new-dtags,-rpath,/r1)",
     .audits = {{.file = "m/libM.so", .closure = Names{"/r1/libA.so", "/r1/libB.so"}}}},

    {.name = "InheritedRpathIsNotUsedWhenTheRequesterHasRunpath",
     .tree = R"(
mklib r1/libB.so libB.so "$B" -nostdlib
mklib r2/libA.so libA.so "$A" -nostdlib -Lr1 -l:libB.so -Wl,--enable-new-dtags,-rpath,/elsewhere
mklib m/libM.so libM.so 'int a(void); int m(void) { return a(); }' -nostdlib -Lr2 -l:libA.so \
  -Wl,--disable-new-dtags,-rpath,/r1:/r2)",
     .audits = {{.file = "m/libM.so", .closure = Names{"/r2/libA.so"}, .unresolved = Names{"libB.so"}}}},

    {.name = "RunpathIsNotInherited",
     .tree = R"(
mklib r1/libB.so libB.so "$B" -nostdlib
mklib r1/libA.so libA.so "$A" -nostdlib -Lr1 -l:libB.so
mklib m/libM.so libM.so 'int a(void); int m(void) { return a(); }' -nostdlib -Lr1 -l:libA.so \
  -Wl,--enable-new-dtags,-rpath,/r1)",
     .audits = {{.file = "m/libM.so", .closure = Names{"/r1/libA.so"}, .unresolved = Names{"libB.so"}}}},

    {.name = "InheritedRpathExpandsOriginOfTheObjectThatOwnsIt",
     .tree = R"(
mklib m/deps/libB.so libB.so "$B" -nostdlib
mklib m/deps/libA.so libA.so "$A" -nostdlib -Lm/deps -l:libB.so
mklib m/libM.so libM.so 'int a(void); int m(void) { return a(); }' -nostdlib -Lm/deps -l:libA.so \
  -Wl,--disable-new-dtags,-rpath,'$ORIGIN/deps')",
     .audits = {{.file = "m/libM.so", .closure = Names{"/m/deps/libA.so", "/m/deps/libB.so"}}}},

    // libtree's 07_origin_is_relative_to_symlink_location_not_realpath. Audited through the
    // symlink itself, $ORIGIN is the link's directory as well.
    {.name = "OriginIsTheDirectoryWhereTheObjectWasFoundNotItsRealPath",
     .tree = R"(
mklib app/lib/libB.so libB.so "$B" -nostdlib
mklib store/libA.so libA.so "$A" -nostdlib -Lapp/lib -l:libB.so -Wl,--enable-new-dtags,-rpath,'$ORIGIN'
ln -s ../../store/libA.so app/lib/libA.so
mklib app/libM.so libM.so 'int a(void); int m(void) { return a(); }' -nostdlib -Lstore -l:libA.so \
  -Wl,--enable-new-dtags,-rpath,'$ORIGIN/lib')",
     .audits = {{.file = "app/libM.so", .closure = Names{"/app/lib/libA.so", "/app/lib/libB.so"}},
                {.file = "app/lib/libA.so", .closure = Names{"/app/lib/libB.so"}}}},

    {.name = "CandidateOfTheWrongElfClassIsSkipped",
     .tree = R"(
mklib r1/libB.so libB.so "$B" -nostdlib -m32
mklib r2/libB.so libB.so "$B" -nostdlib
mklib a/libA.so libA.so "$A" -nostdlib -Lr2 -l:libB.so -Wl,--enable-new-dtags,-rpath,/r1:/r2)",
     .audits = {{.file = "a/libA.so", .closure = Names{"/r2/libB.so"}}}},

    {.name = "CandidateForAnotherMachineIsSkipped",
     .tree = R"(
mkdir -p r1 && printf '%s\n' '--- !ELF' 'FileHeader:' '  Class: ELFCLASS64' '  Data: ELFDATA2LSB' \
  '  Type: ET_DYN' '  Machine: EM_AARCH64' > arm.yaml && yaml2obj-19 arm.yaml -o r1/libB.so
mklib r2/libB.so libB.so "$B" -nostdlib
mklib a/libA.so libA.so "$A" -nostdlib -Lr2 -l:libB.so -Wl,--enable-new-dtags,-rpath,/r1:/r2)",
     .audits = {{.file = "a/libA.so", .closure = Names{"/r2/libB.so"}}}},

    {.name = "CandidateThatIsNotElfStopsTheSearch",
     .tree = R"(
mkdir -p r1 && printf '/* GNU ld script\n   Use the shared library, but some functions are only in\n   the static library. */\nGROUP ( libB.so.1 )\n' > r1/libB.so
mklib r2/libB.so libB.so "$B" -nostdlib
mklib a/libA.so libA.so "$A" -nostdlib -Lr2 -l:libB.so -Wl,--enable-new-dtags,-rpath,/r1:/r2)",
     .audits = {{.file = "a/libA.so", .search = {.name = "libB.so", .error = "invalid ELF header"}}}},

    {.name = "DefaultDirectoriesAreSearchedInsideTheRoot",
     .tree = R"(
mklib usr/lib/x86_64-linux-gnu/libB.so libB.so "$B" -nostdlib
mklib a/libA.so libA.so "$A" -nostdlib -Lusr/lib/x86_64-linux-gnu -l:libB.so)",
     .audits = {{.file = "a/libA.so", .closure = Names{"/usr/lib/x86_64-linux-gnu/libB.so"}}}},

    {.name = "NodeflibSkipsTheDefaultDirectories",
     .tree = R"(
mklib usr/lib/libB.so libB.so "$B" -nostdlib
mklib a/libA.so libA.so "$A" -nostdlib -Lusr/lib -l:libB.so -Wl,-z,nodefaultlib)",
     .audits = {{.file = "a/libA.so", .closure = Names{}, .unresolved = Names{"libB.so"}}}},

    // --default-dirs names the target loader's built-in directories; an empty list has none.
    {.name = "DefaultDirectoriesCanBeGiven",
     .tree = R"(
mklib usr/lib/x86_64-linux-gnu/libB.so libB.so "$B" -nostdlib
mklib alt/libB.so libB.so "$B" -nostdlib
mklib a/libA.so libA.so "$A" -nostdlib -Lalt -l:libB.so)",
     .audits = {{.file = "a/libA.so", .default_dirs = Names{}, .unresolved = Names{"libB.so"}},
                {.file = "a/libA.so", .default_dirs = Names{"/alt"}, .closure = Names{"/alt/libB.so"}},
                {.file = "a/libA.so", .closure = Names{"/usr/lib/x86_64-linux-gnu/libB.so"}}}},

    // A Nix glibc's ld.so searches only its own lib/: the interpreter names it. libC is found
    // in the interpreter's directory; libB is only in Debian's directories: not searched.
    {.name = "InterpreterInAStorePathBringsItsOwnDefaultDirectory",
     .tree = R"(
G=/nix/store/0123456789abcdfghijklmnpqrsvwxyz-glibc-2.40/lib
mklib usr/lib/x86_64-linux-gnu/libB.so libB.so "$B" -nostdlib
mklib ".$G/libC.so" libC.so 'int c(void) { return 3; }' -nostdlib
mklib lib/libB.so libB.so "$B" -nostdlib
mkexe bin/app 'int b(void); int c(void); int main(void) { return b() + c(); }' \
  -nostdlib -Llib -L".$G" -l:libB.so -l:libC.so -Wl,--dynamic-linker="$G/ld-linux-x86-64.so.2" -Wl,-e,main)",
     .audits = {{.file = "bin/app",
                 .closure = Names{"/nix/store/0123456789abcdfghijklmnpqrsvwxyz-glibc-2.40/lib/libC.so"},
                 .unresolved = Names{"libB.so"}}}},

    {.name = "LdSoConfDirectoriesAndIncludeGlobsAreSearched",
     .tree = R"(
mkdir -p etc/ld.so.conf.d && echo 'include ld.so.conf.d/*.conf' > etc/ld.so.conf
printf '# ROCm\n/opt/rocm/lib\n' > etc/ld.so.conf.d/rocm.conf
mklib opt/rocm/lib/libB.so libB.so "$B" -nostdlib
mklib a/libA.so libA.so "$A" -nostdlib -Lopt/rocm/lib -l:libB.so)",
     .audits = {{.file = "a/libA.so", .closure = Names{"/opt/rocm/lib/libB.so"}}}},

    {.name = "NodeflibStillUsesLdSoConfDirectoriesOutsideTheDefaults",
     .tree = R"(
mkdir -p etc && echo /opt/rocm/lib > etc/ld.so.conf
mklib opt/rocm/lib/libB.so libB.so "$B" -nostdlib
mklib a/libA.so libA.so "$A" -nostdlib -Lopt/rocm/lib -l:libB.so -Wl,-z,nodefaultlib)",
     .audits = {{.file = "a/libA.so", .closure = Names{"/opt/rocm/lib/libB.so"}}}},

    {.name = "AbsoluteSymlinksResolveInsideTheRoot",
     .tree = R"(
mklib usr/lib/libB.so.1 libB.so.1 "$B" -nostdlib
mkdir -p r1 && ln -s /usr/lib/libB.so.1 r1/libB.so.1
mklib a/libA.so libA.so "$A" -nostdlib -Lusr/lib -l:libB.so.1 -Wl,--enable-new-dtags,-rpath,/r1)",
     .audits = {{.file = "a/libA.so", .closure = Names{"/r1/libB.so.1"}}}},

    // --root DESTDIR --root SYSTEM: a staged package resolved as once installed on SYSTEM. The
    // staged tree alone cannot know libB: that is what the second layer is for.
    {.name = "RootLayersResolveAStagedTreeOverTheSystem",
     .tree = R"(
mklib system/usr/lib/x86_64-linux-gnu/libB.so libB.so "$B" -nostdlib
mklib destdir/opt/rocm/lib/libC.so libC.so 'int c(void) { return 3; }' -nostdlib
mklib destdir/opt/rocm/lib/libA.so libA.so 'int b(void); int c(void); int a(void) { return b() + c(); }' \
  -nostdlib -Lsystem/usr/lib/x86_64-linux-gnu -Ldestdir/opt/rocm/lib -l:libB.so -l:libC.so \
  -Wl,--enable-new-dtags,-rpath,/opt/rocm/lib)",
     .audits = {{.file = "destdir/opt/rocm/lib/libA.so",
                 .paths = {"destdir"},
                 .roots = {"destdir", "system"},
                 .closure = Names{"/usr/lib/x86_64-linux-gnu/libB.so", "/opt/rocm/lib/libC.so"},
                 .unresolved = Names{},
                 .all_bound = true},
                {.file = "destdir/opt/rocm/lib/libA.so",
                 .paths = {"destdir"},
                 .roots = {"destdir"},
                 .unresolved = Names{"libB.so"}}}},

    // The package-build hook: a staged library built normally (libc and all) over this host.
    {.name = "StagedPackageOverTheHostFindsTheSystemLibraries",
     .tree = R"(
mklib destdir/usr/lib/x86_64-linux-gnu/libstaged.so.1 libstaged.so.1 \
  '#include <stdio.h>
int staged(void) { return puts("x"); }')",
     .audits = {{.file = "destdir/usr/lib/x86_64-linux-gnu/libstaged.so.1",
                 .paths = {"destdir"},
                 .roots = {"destdir", "/"},
                 .closure_has_one_of = {"/lib/x86_64-linux-gnu/libc.so.6",
                                        "/usr/lib/x86_64-linux-gnu/libc.so.6"},
                 .unresolved = Names{},
                 .all_bound = true}}},

    // glibc's _dl_map_object skips failed (faked) maps when it matches a name: libB searches
    // again with its own RUNPATH and loads libX, which libA could not find. ld.so's trace mode
    // prints both "libX.so => not found" and "libX.so => /hidden/libX.so". Only libA failed;
    // x() binds: the global scope holds libX, loaded for libB.
    {.name = "FailedLookupIsSearchedAgainByALaterRequester",
     .tree = R"(
mklib hidden/libX.so libX.so 'int x(void) { return 1; }' -nostdlib
mklib a/libA.so libA.so 'int x(void); int a(void) { return x(); }' -nostdlib -Lhidden -l:libX.so
mklib b/libB.so libB.so 'int x(void); int b(void) { return x(); }' -nostdlib -Lhidden -l:libX.so \
  -Wl,--enable-new-dtags,-rpath,/hidden
mklib m/libM.so libM.so 'int a(void); int b(void); int m(void) { return a() + b(); }' \
  -nostdlib -La -Lb -l:libA.so -l:libB.so -Wl,--enable-new-dtags,-rpath,/a:/b)",
     .audits = {{.file = "m/libM.so",
                 .closure = Names{"/a/libA.so", "/b/libB.so", "/hidden/libX.so"},
                 .search = {.name = "libX.so", .needed_by = {"libA.so"}},
                 .all_bound = true}}},

    // libA needs "libX.so"; the installed libX.so has SONAME libfoo.so.2. libY needs
    // "libfoo.so.2", a name no file has: ld.so matches the loaded libX.so by its soname.
    {.name = "LoadedObjectIsReusedBySoname",
     .tree = R"(
mklib link/libX.so libX.so 'int foo(void) { return 2; }' -nostdlib
mklib link/libfoo.so.2 libfoo.so.2 'int foo(void) { return 2; }' -nostdlib
mklib r/libY.so libY.so 'int foo(void); int y(void) { return foo(); }' -nostdlib -Llink -l:libfoo.so.2
mklib r/libX.so libfoo.so.2 'int foo(void) { return 2; }' -nostdlib
mklib a/libA.so libA.so 'int y(void); int foo(void); int a(void) { return y() + foo(); }' -nostdlib \
  -Llink -Lr -l:libX.so -l:libY.so -Wl,--enable-new-dtags,-rpath,/r
rm -r link)",
     .audits = {{.file = "a/libA.so", .closure = Names{"/r/libX.so", "/r/libY.so"}, .unresolved = Names{}}}},

    {.name = "ClosureIsInBreadthFirstLoadOrder",
     .tree = R"(
mklib r/libC.so libC.so 'int c(void) { return 3; }' -nostdlib
mklib r/libD.so libD.so 'int d(void) { return 4; }' -nostdlib
mklib r/libA.so libA.so 'int c(void); int a(void) { return c(); }' -nostdlib -Lr -l:libC.so -Wl,-rpath,/r
mklib r/libB.so libB.so 'int d(void); int b(void) { return d(); }' -nostdlib -Lr -l:libD.so -Wl,-rpath,/r
mklib m/libM.so libM.so 'int a(void); int b(void); int m(void) { return a() + b(); }' -nostdlib \
  -Lr -l:libA.so -l:libB.so -Wl,--enable-new-dtags,-rpath,/r)",
     .audits = {{.file = "m/libM.so",
                 .closure = Names{"/r/libA.so", "/r/libB.so", "/r/libC.so", "/r/libD.so"}}}},

    // Audited with no root: the DT_NEEDED entry is the host path of sub/libB.so.
    {.name = "NeededNameWithASlashIsOpenedDirectly",
     .tree = R"(
mkdir -p sub && printf 'int b(void) { return 1; }' > b.c && $CC -shared -fPIC -nostdlib -o sub/libB.so b.c
mklib a/libA.so libA.so "$A" -nostdlib "$PWD/sub/libB.so")",
     .audits = {{.file = "a/libA.so", .roots = {}, .closure = Names{"$TREE/sub/libB.so"}}}},
};

// The DT_AUXILIARY entry of a 64-bit little-endian object becomes DT_RUNPATH, its string kept.
void RetagAuxiliaryAsRunpath(const std::string& path) {
  const std::string aux("\xfd\xff\xff\x7f\x00\x00\x00\x00", 8);      // DT_AUXILIARY
  const std::string runpath("\x1d\x00\x00\x00\x00\x00\x00\x00", 8);  // DT_RUNPATH
  std::string bytes = ReadAll(path);
  size_t at = bytes.find(aux);
  ASSERT_NE(at, std::string::npos) << path << " has no DT_AUXILIARY entry";
  bytes.replace(at, aux.size(), runpath);
  WriteAll(path, bytes);
}

std::string Below(const std::string& tree, const std::string& path) {
  return path == "/" ? path : path == "." ? tree : tree + "/" + path;
}

Names Below(const std::string& tree, const Names& paths) {
  Names out;
  for (const std::string& p : paths) out.push_back(Below(tree, p));
  return out;
}

Names WithTree(const std::string& tree, Names names) {
  for (std::string& n : names)
    if (n.starts_with("$TREE")) n.replace(0, 5, tree);
  return names;
}

void CheckSearch(const CoreAudit& r, const std::string& file, const Search& s) {
  const UnresolvedLibrary* u = r.UnresolvedNamed(file, s.name);
  ASSERT_NE(u, nullptr) << s.name << " was resolved";
  if (s.skips_rpath)
    EXPECT_THAT(u->resolution.searched, Each(Field(&SearchStep::source, Not(HasSubstr("RPATH")))));
  if (!s.error.empty()) EXPECT_THAT(u->resolution.error, HasSubstr(s.error));
  if (!s.needed_by.empty()) {
    const LoadFacts* load = r.LoadOf(file);
    ASSERT_NE(load, nullptr);
    Names by;
    for (int i : u->needed_by) by.emplace_back(BaseName(load->closure.objects.at(i).path));
    EXPECT_EQ(by, s.needed_by);
  }
}

void Check(const std::string& tree, const Audit& a) {
  const std::string file = Below(tree, a.file);
  CoreAudit r(a.paths.empty() ? Names{file} : Below(tree, a.paths), Below(tree, a.roots),
              Below(tree, a.library_path), "/etc/ld.so.conf", a.default_dirs);
  if (a.closure) EXPECT_EQ(r.Closure(file), WithTree(tree, *a.closure));
  if (!a.closure_has_one_of.empty()) EXPECT_THAT(r.Closure(file), Contains(AnyOfArray(a.closure_has_one_of)));
  if (a.unresolved) EXPECT_EQ(r.Unresolved(file), *a.unresolved);
  if (a.loaded_names) {
    const LoadFacts* load = r.LoadOf(file);
    ASSERT_NE(load, nullptr);
    std::vector<Names> names;
    for (size_t i = 1; i < load->closure.objects.size(); ++i) {
      const auto& of = load->closure.objects[i].names;
      names.emplace_back(of.begin(), of.end());
    }
    EXPECT_EQ(names, *a.loaded_names);
  }
  if (!a.search.name.empty()) CheckSearch(r, file, a.search);
  if (a.all_bound) {
    EXPECT_THAT(r.Undefined(), IsEmpty());
    EXPECT_THAT(r.MissingVersions(), IsEmpty());
  }
}

class LoaderRules : public ::testing::TestWithParam<LoaderScenario> {};

TEST_P(LoaderRules, Scenario) {
  const LoaderScenario& s = GetParam();
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), std::string("A='int b(void); int a(void) { return b(); }'\n"
                                              "B='int b(void) { return 1; }'\n") +
                                      s.tree));
  if (*s.auxiliary_to_runpath) ASSERT_NO_FATAL_FAILURE(RetagAuxiliaryAsRunpath(t / s.auxiliary_to_runpath));
  for (size_t i = 0; i < s.audits.size(); ++i) {
    SCOPED_TRACE("audit " + std::to_string(i + 1) + " of " + s.audits[i].file);
    Check(t.path(), s.audits[i]);
  }
}

INSTANTIATE_TEST_SUITE_P(, LoaderRules, ::testing::ValuesIn(kScenarios),
                         [](const ::testing::TestParamInfo<LoaderScenario>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace rocm_audit::testing
