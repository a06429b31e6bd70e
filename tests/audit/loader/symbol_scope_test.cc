// glibc's symbol matching (check_match/do_lookup_x), on libraries linked with version
// scripts by the real linker.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "audit/elf/elf_reader.h"
#include "tests/support/core_audit.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;

// libv.so.1 exports f@V1 (non-default), f@@V2 (default) and g@@V1.
const char* kVersioned =
    "printf 'V1 { global: g; local: *; };\\nV2 { global: f; } V1;\\n' > v.map\n"
    "printf '%s\\n' 'int f_old(void) { return 1; } int f_new(void) { return 2; } int g(void) { return 3; }'"
    " '__asm__(\".symver f_old,f@V1\"); __asm__(\".symver f_new,f@@V2\");' > v.c\n"
    "mkdir -p lib && $CC -shared -fPIC -nostdlib -o lib/libv.so.1 v.c -Wl,-soname,libv.so.1 "
    "-Wl,--version-script,v.map\n";

// app/libapp.so calls f and g of libv.so.1 (kVersioned), found by its RUNPATH /lib.
bool BuildAppOfVersioned(const TempDir& t) {
  return BuildTree(
      t.path(),
      std::string(kVersioned) +
          "mklib app/libapp.so libapp.so 'int f(void); int g(void); int app(void) { return f() + g(); }' "
          "-nostdlib -Llib -l:libv.so.1 -Wl,--enable-new-dtags,-rpath,/lib");
}

TEST(SymbolScope, VersionedReferenceBindsToTheSameVersion) {
  TempDir t;
  ASSERT_TRUE(BuildAppOfVersioned(t));
  CoreAudit r({t / "app/libapp.so"}, {t.path()});
  EXPECT_TRUE(r.Undefined().empty());
  EXPECT_TRUE(r.MissingVersions().empty());
}

TEST(SymbolScope, VersionedReferenceFailsWhenOnlyAnotherVersionIsDefined) {
  TempDir t;
  // Link against V1+V2, then install a libv.so.1 whose f is only f@@V1 (and V2 exists for g).
  ASSERT_TRUE(
      BuildTree(t.path(), std::string(kVersioned) +
                              "mklib app/libapp.so libapp.so 'int f(void); int app(void) { return f(); }' "
                              "-nostdlib -Llib -l:libv.so.1 -Wl,--enable-new-dtags,-rpath,/lib\n"
                              "printf 'V1 { global: f; local: *; };\\nV2 { global: g; } V1;\\n' > v2.map\n"
                              "printf 'int f(void) { return 1; } int g(void) { return 3; }' > v2.c\n"
                              "$CC -shared -fPIC -nostdlib -o lib/libv.so.1 v2.c -Wl,-soname,libv.so.1 "
                              "-Wl,--version-script,v2.map"));
  CoreAudit r({t / "app/libapp.so"}, {t.path()});
  auto f = r.Undefined();
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].name, "f");
  EXPECT_EQ(f[0].version, "V2");
}

TEST(SymbolScope, VersionedReferenceBindsToALibraryWithoutVersionInformation) {
  TempDir t;
  ASSERT_TRUE(
      BuildTree(t.path(), std::string(kVersioned) +
                              "mklib app/libapp.so libapp.so 'int f(void); int app(void) { return f(); }' "
                              "-nostdlib -Llib -l:libv.so.1 -Wl,--enable-new-dtags,-rpath,/lib\n"
                              "mklib lib/libv.so.1 libv.so.1 'int f(void) { return 1; }' -nostdlib"));
  CoreAudit r({t / "app/libapp.so"}, {t.path()});
  EXPECT_TRUE(r.Undefined().empty());
  // ld.so only warns (verbosely) when the library has no version definitions at all.
  EXPECT_TRUE(r.MissingVersions().empty());
}

TEST(SymbolScope, UnversionedReferenceBindsToTheDefaultVersion) {
  TempDir t;
  ASSERT_TRUE(
      BuildTree(t.path(), std::string(kVersioned) +
                              "mklib lib/libplain.so.1 libv.so.1 'int f(void) { return 1; }' -nostdlib\n"
                              "mklib app/libapp.so libapp.so 'int f(void); int app(void) { return f(); }' "
                              "-nostdlib -Llib -l:libplain.so.1 -Wl,--enable-new-dtags,-rpath,/lib\n"
                              "rm lib/libplain.so.1"));
  CoreAudit r({t / "app/libapp.so"}, {t.path()});
  EXPECT_TRUE(r.Undefined().empty());
}

TEST(SymbolScope, NonDefaultVersionAloneDoesNotSatisfyAnUnversionedReference) {
  TempDir t;
  // The library only has f@V1 (hidden, non-default) and a default h: an unversioned f finds
  // no acceptable definition.
  ASSERT_TRUE(BuildTree(
      t.path(), std::string() + "mklib lib/libplain.so.1 libv.so.1 'int f(void) { return 1; }' -nostdlib\n"
                                "mklib app/libapp.so libapp.so 'int f(void); int app(void) { return f(); }' "
                                "-nostdlib -Llib -l:libplain.so.1 -Wl,--enable-new-dtags,-rpath,/lib\n"
                                "rm lib/libplain.so.1\n"
                                "printf 'V1 { global: h; local: *; };\\nV2 { global: h2; } V1;\\n' > v.map\n"
                                "printf '%s\\n' 'int f_old(void) { return 1; } int h(void) { return 0; } int "
                                "h2(void) { return 0; }'"
                                " '__asm__(\".symver f_old,f@V1\");' > v.c\n"
                                "$CC -shared -fPIC -nostdlib -o lib/libv.so.1 v.c -Wl,-soname,libv.so.1 "
                                "-Wl,--version-script,v.map"));
  CoreAudit r({t / "app/libapp.so"}, {t.path()});
  auto f = r.Undefined();
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].name, "f");
}

TEST(SymbolScope, WeakUndefinedReferencesAreNotReported) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
                        "mklib a/libA.so libA.so '__attribute__((weak)) int optional_hook(void); "
                        "int a(void) { return optional_hook ? optional_hook() : 0; }' -nostdlib"));
  CoreAudit r({t / "a/libA.so"}, {t.path()});
  EXPECT_TRUE(r.Undefined().empty());
}

// GCC 13's <iostream> makes every object reference _ZSt21ios_base_library_initv with a bare
// .globl, only to pull in the GLIBCXX_3.4.32 version: no relocation uses it, so ld.so never
// looks it up and `ldd -r` never reports it.
TEST(SymbolScope, UndefinedSymbolWithoutARelocationIsNeverLookedUp) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
                        "mklib a/libA.so libA.so '__asm__(\".globl marker_only\"); int called(void); int "
                        "a(void) { return called(); }' -nostdlib"));
  std::string out;
  ASSERT_EQ(RunCommand("readelf --dyn-syms -W " + t / "a/libA.so", &out), 0);
  ASSERT_THAT(out, HasSubstr("UND marker_only"));  // it is in .dynsym
  CoreAudit r({t / "a/libA.so"}, {t.path()});
  auto f = r.Undefined();
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].name, "called");
}

// The relocations are read only to judge an import the scope does not define: a library
// whose imports all bind has its relocation tables (megabytes in a large C++ library) left
// unread.
TEST(SymbolScope, RelocationsAreReadOnlyForAnImportNothingDefines) {
  TempDir t;
  ASSERT_TRUE(BuildAppOfVersioned(t));
  const uint64_t before = RelocationScans();
  CoreAudit r({t / "app/libapp.so"}, {t.path()});
  EXPECT_TRUE(r.Undefined().empty());
  EXPECT_EQ(RelocationScans(), before);
}

TEST(SymbolScope, HiddenDefinitionsDoNotCount) {
  TempDir t;
  ASSERT_TRUE(
      BuildTree(t.path(),
                "mklib r/libB.so libB.so '__attribute__((visibility(\"hidden\"))) int b(void) { return 1; } "
                "int other(void) { return b(); }' -nostdlib\n"
                "mklib a/libA.so libA.so 'int b(void); int a(void) { return b(); }' -nostdlib -Lr -l:libB.so "
                "-Wl,--enable-new-dtags,-rpath,/r"));
  CoreAudit r({t / "a/libA.so"}, {t.path()});
  auto f = r.Undefined();
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].name, "b");
}

TEST(SymbolScope, AnExecutableDefinitionSatisfiesALibraryAuditedWithIt) {
  TempDir t;
  // A plugin referencing a symbol its host program exports: audited alone (as ldd -r does)
  // the symbol is undefined; the host executable's own audit is clean.
  ASSERT_TRUE(BuildTree(t.path(),
                        "mklib lib/libplugin.so libplugin.so 'int host_api(void); int plugin(void) { return "
                        "host_api(); }' -nostdlib\n"
                        "mkexe bin/host 'int plugin(void); int host_api(void) { return 7; } int main(void) { "
                        "return plugin(); }' "
                        "-nostdlib -nostartfiles -Wl,-e,main -rdynamic -Llib -l:libplugin.so "
                        "-Wl,--enable-new-dtags,-rpath,/lib"));
  CoreAudit r({t.path()}, {t.path()});
  EXPECT_EQ(r.Undefined(t / "lib/libplugin.so").size(), 1u);
  EXPECT_TRUE(r.Undefined(t / "bin/host").empty());
}

// Issue 52: ld.so asks a library's GNU hash Bloom filter before its buckets (elf/dl-lookup.c,
// do_lookup_x), and so does the binding: a name whose two bits are clear is not defined there
// for ld.so, whatever the buckets hold (ldd -r: "undefined symbol: b"), and the filter spares
// the lookup the bucket and chain pages of every library a name is not in.
TEST(SymbolScope, ANameTheBloomFilterRulesOutIsNotDefinedThere) {
  TempDir t;
  const std::string tree =
      "mklib lib/libb.so.1 libb.so.1 'int b(void) { return 1; }' -nostdlib\n"
      "mklib app/libapp.so libapp.so 'int b(void); int a(void) { return b(); }' -nostdlib -Llib -l:libb.so.1 "
      "-Wl,--enable-new-dtags,-rpath,/lib\n";
  ASSERT_TRUE(BuildTree(t.path(), tree));
  EXPECT_TRUE(CoreAudit({t / "app/libapp.so"}, {t.path()}).Undefined().empty());
  ASSERT_TRUE(BuildTree(t.path(),
                        "python3 '" ROCM_AUDIT_FIXTURES_DIR "/hostile_speed52.py' zero-bloom lib/libb.so.1"));
  // The names are views into the audit's mappings: the audit outlives them.
  const CoreAudit audit({t / "app/libapp.so"}, {t.path()});
  auto undefined = audit.Undefined();
  ASSERT_EQ(undefined.size(), 1u);
  EXPECT_EQ(undefined[0].name, "b");
}

}  // namespace
}  // namespace rocm_audit::testing
