// undefined-symbol, missing-version and provider hints on real linker output.
#include <gtest/gtest.h>

#include "tests/test_support.h"

namespace rocm_audit::testing {
namespace {

// The NixOS/MIOpen 6.2.2 defect: rocMLIR's static library defines the X86 initialisers
// in a member nobody links.
TEST(UndefinedSymbols, ReportsEachSymbolWithItsArchiveProvider) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
      "mkarchive \"$PWD/lib/librockCompiler.a\" X86TargetInfo.cpp.o 'void LLVMInitializeX86TargetInfo(void) {} "
      "void LLVMInitializeX86Target(void) {}'\n"
      "mklib lib/libMIOpen.so libMIOpen.so.1 'void LLVMInitializeX86TargetInfo(void); void LLVMInitializeX86Target(void); "
      "int miopen(void) { LLVMInitializeX86TargetInfo(); LLVMInitializeX86Target(); return 0; }' -nostdlib"));
  Report r = Audit({t.path()}, t.path());
  auto f = FindingsOf(r, "undefined-symbol", t / "lib/libMIOpen.so");
  ASSERT_EQ(f.size(), 2u);
  for (const Finding& x : f) {
    ASSERT_EQ(x.fields["providers"].size(), 1u) << x.fields.dump();
    EXPECT_EQ(x.fields["providers"][0]["file"], "/lib/librockCompiler.a");
    EXPECT_EQ(x.fields["providers"][0]["member"], "X86TargetInfo.cpp.o");
    EXPECT_NE(x.hint.find("lib/librockCompiler.a(X86TargetInfo.cpp.o), which libMIOpen.so does not link"),
              std::string::npos) << x.hint;
    EXPECT_TRUE(x.fields["version"].is_null());
  }
}

TEST(UndefinedSymbols, SharedLibraryOutsideTheClosureIsAProvider) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
      "mklib lib/libLLVM.so.19 libLLVM.so.19 'void LLVMInitializeX86Target(void) {}' -nostdlib\n"
      "mklib lib/libA.so libA.so 'void LLVMInitializeX86Target(void); int a(void) { LLVMInitializeX86Target(); return 0; }' -nostdlib"));
  Report r = Audit({t.path()}, t.path());
  auto f = FindingsOf(r, "undefined-symbol", t / "lib/libA.so");
  ASSERT_EQ(f.size(), 1u);
  ASSERT_EQ(f[0].fields["providers"].size(), 1u);
  EXPECT_EQ(f[0].fields["providers"][0]["file"], "/lib/libLLVM.so.19");
  EXPECT_FALSE(f[0].fields["providers"][0].contains("member"));
}

TEST(UndefinedSymbols, CxxSymbolsAreShownDemangled) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
      "printf 'namespace miopen { int Handle_Create(int x); }\\nint a(void) { return miopen::Handle_Create(1); }\\n' > a.cc\n"
      "mkdir -p lib && g++ -shared -fPIC -nostdlib -o lib/libA.so a.cc"));
  Report r = Audit({t / "lib/libA.so"}, t.path());
  auto f = FindingsOf(r, "undefined-symbol");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].fields["symbol"], "_ZN6miopen13Handle_CreateEi");
  EXPECT_EQ(f[0].fields["demangled"], "miopen::Handle_Create(int)");
  EXPECT_NE(f[0].message.find("(miopen::Handle_Create(int))"), std::string::npos) << f[0].message;
}

TEST(UndefinedSymbols, SymbolsBehindAnUnresolvedLibraryAreAttributedToIt) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
      "mklib tmp/libhsa.so.1 libhsa.so.1 'int hsa_init(void) { return 0; } int hsa_shut_down(void) { return 0; }' -nostdlib\n"
      "mklib lib/libA.so libA.so 'int hsa_init(void); int hsa_shut_down(void); int a(void) { return hsa_init() + hsa_shut_down(); }' "
      "-nostdlib -Ltmp -l:libhsa.so.1\n"
      "rm -r tmp"));
  Report r = Audit({t / "lib/libA.so"}, t.path());
  EXPECT_TRUE(FindingsOf(r, "undefined-symbol").empty());
  auto f = FindingsOf(r, "unresolved-library", t / "lib/libA.so");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].fields["library"], "libhsa.so.1");
  EXPECT_EQ(f[0].fields["unbound_symbols"].size(), 2u);
  EXPECT_NE(f[0].message.find("2 undefined symbols"), std::string::npos) << f[0].message;
}

TEST(UndefinedSymbols, MissingVersionNamesTheSymbolsThatNeedIt) {
  TempDir t;
  // The GLIBCXX_3.4.32 case: built against a newer library than the one installed.
  ASSERT_TRUE(BuildTree(t.path(),
      "mkversioned new/libcxx.so.6 libcxx.so.6 'CXX_3.4.31 { global: old_fn; local: *; }; CXX_3.4.32 { global: new_fn; } CXX_3.4.31;' "
      "'int old_fn(void) { return 0; } int new_fn(void) { return 1; }'\n"
      "mklib lib/libA.so libA.so 'int old_fn(void); int new_fn(void); int a(void) { return old_fn() + new_fn(); }' "
      "-nostdlib -Lnew -l:libcxx.so.6 -Wl,--enable-new-dtags,-rpath,/lib\n"
      "mkversioned lib/libcxx.so.6 libcxx.so.6 'CXX_3.4.31 { global: old_fn; local: *; };' 'int old_fn(void) { return 0; }'\n"
      "rm -r new"));
  Report r = Audit({t / "lib/libA.so"}, t.path());
  auto f = FindingsOf(r, "missing-version", t / "lib/libA.so");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].fields["library"], "libcxx.so.6");
  EXPECT_EQ(f[0].fields["version"], "CXX_3.4.32");
  EXPECT_EQ(f[0].fields["symbols"], nlohmann::ordered_json::array({"new_fn"}));
  EXPECT_NE(f[0].message.find("its newest is CXX_3.4.31"), std::string::npos) << f[0].message;
  // new_fn is reported once, on the version finding, not again as undefined-symbol.
  EXPECT_TRUE(FindingsOf(r, "undefined-symbol").empty());
}

TEST(UndefinedSymbols, WeakVersionNeedIsNotAnError) {
  TempDir t;
  // A weak version reference (VER_FLG_WEAK) only draws a verbose warning from ld.so. GNU ld
  // never sets the flag, so the fixture sets it in the W_2 vernaux entry (vna_flags, +4).
  ASSERT_TRUE(BuildTree(t.path(),
      "mkversioned new/libw.so.1 libw.so.1 'W_1 { global: base; local: *; }; W_2 { global: extra; } W_1;' "
      "'int base(void) { return 0; } int extra(void) { return 1; }'\n"
      "mklib lib/libA.so libA.so 'int base(void); __attribute__((weak)) int extra(void); "
      "int a(void) { return base() + (extra ? extra() : 0); }' -nostdlib -Lnew -l:libw.so.1 -Wl,--enable-new-dtags,-rpath,/lib\n"
      "sec=$(readelf -V lib/libA.so | sed -n 's/.*Addr: 0x[0-9a-f]*  Offset: 0x\\([0-9a-f]*\\).*/\\1/p' | tail -1)\n"
      "aux=$(readelf -V lib/libA.so | sed -n 's/^  0x\\([0-9a-f]*\\):   Name: W_2.*/\\1/p')\n"
      "printf '\\002' | dd of=lib/libA.so bs=1 seek=$((0x$sec + 0x$aux + 4)) conv=notrunc status=none\n"
      "readelf -V lib/libA.so | grep -q 'Name: W_2  Flags: WEAK'\n"
      "mkversioned lib/libw.so.1 libw.so.1 'W_1 { global: base; local: *; };' 'int base(void) { return 0; }'\n"
      "rm -r new"));
  Report r = Audit({t / "lib/libA.so"}, t.path());
  EXPECT_TRUE(FindingsOf(r, "missing-version").empty());
  EXPECT_TRUE(FindingsOf(r, "undefined-symbol").empty());
}

}  // namespace
}  // namespace rocm_audit::testing
