// undefined-symbol: ldd -r's verdict per symbol, with the provider that the link misses.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/audit_support.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;

// The NixOS/MIOpen 6.2.2 defect: rocMLIR's static library defines the X86 initialisers
// in a member nobody links.
TEST(UndefinedSymbols, ReportsEachSymbolWithItsArchiveProvider) {
  TempDir t;
  ASSERT_TRUE(BuildTree(
      t.path(),
      "mkarchive \"$PWD/lib/librockCompiler.a\" X86TargetInfo.cpp.o 'void LLVMInitializeX86TargetInfo(void) "
      "{} "
      "void LLVMInitializeX86Target(void) {}'\n"
      "mklib lib/libMIOpen.so libMIOpen.so.1 'void LLVMInitializeX86TargetInfo(void); void "
      "LLVMInitializeX86Target(void); "
      "int miopen(void) { LLVMInitializeX86TargetInfo(); LLVMInitializeX86Target(); return 0; }' -nostdlib"));
  Report r = Audit({t.path()}, t.path());
  auto f = FindingsOf(r, "undefined-symbol", t / "lib/libMIOpen.so");
  ASSERT_EQ(f.size(), 2u);
  for (const Finding& x : f) {
    ASSERT_EQ(x.fields["providers"].size(), 1u) << x.fields.dump();
    EXPECT_EQ(x.fields["providers"][0]["file"], "/lib/librockCompiler.a");
    EXPECT_EQ(x.fields["providers"][0]["member"], "X86TargetInfo.cpp.o");
    EXPECT_TRUE(x.fields["version"].is_null());
  }
}

TEST(UndefinedSymbols, SharedLibraryOutsideTheClosureIsAProvider) {
  TempDir t;
  ASSERT_TRUE(
      BuildTree(t.path(),
                "mklib lib/libLLVM.so.19 libLLVM.so.19 'void LLVMInitializeX86Target(void) {}' -nostdlib\n"
                "mklib lib/libA.so libA.so 'void LLVMInitializeX86Target(void); int a(void) { "
                "LLVMInitializeX86Target(); return 0; }' -nostdlib"));
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
                        "printf 'namespace miopen { int Handle_Create(int x); }\\nint a(void) { return "
                        "miopen::Handle_Create(1); }\\n' > a.cc\n"
                        "mkdir -p lib && g++ -shared -fPIC -nostdlib -o lib/libA.so a.cc"));
  Report r = Audit({t / "lib/libA.so"}, t.path());
  auto f = FindingsOf(r, "undefined-symbol");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].fields["symbol"], "_ZN6miopen13Handle_CreateEi");
  EXPECT_EQ(f[0].fields["demangled"], "miopen::Handle_Create(int)");
}

// Issue 47: llvm::demangle recurses once per level of nesting; an undefined symbol nested
// 200,000 pointers deep would overflow the stack. It is reported, shown mangled.
TEST(UndefinedSymbols, ANameNestedPastTheStackIsShownMangled) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
                        "python3 -c 'print(\"extern int v __asm__(\\\"_Z1fP\" + \"P\" * 200000 + "
                        "\"i\\\"); int a(void) { return v; }\")' > a.c\n"
                        "mkdir -p lib && cc -shared -fPIC -nostdlib -o lib/libA.so a.c"));
  Report r = Audit({t / "lib/libA.so"}, t.path());
  auto f = FindingsOf(r, "undefined-symbol");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_THAT(f[0].fields["symbol"].get<std::string>(), ::testing::StartsWith("_Z1fPPPP"));
  EXPECT_FALSE(f[0].fields.contains("demangled"));
}

}  // namespace
}  // namespace rocm_audit::testing
