// missing-version: DT_VERNEED versions the resolved library lacks; weak needs are not errors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/audit_support.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;

TEST(MissingVersions, MissingVersionNamesTheSymbolsThatNeedIt) {
  TempDir t;
  // The GLIBCXX_3.4.32 case: built against a newer library than the one installed.
  ASSERT_TRUE(BuildTree(t.path(),
                        "mkversioned new/libcxx.so.6 libcxx.so.6 'CXX_3.4.31 { global: old_fn; local: *; }; "
                        "CXX_3.4.32 { global: new_fn; } CXX_3.4.31;' "
                        "'int old_fn(void) { return 0; } int new_fn(void) { return 1; }'\n"
                        "mklib lib/libA.so libA.so 'int old_fn(void); int new_fn(void); int a(void) { return "
                        "old_fn() + new_fn(); }' "
                        "-nostdlib -Lnew -l:libcxx.so.6 -Wl,--enable-new-dtags,-rpath,/lib\n"
                        "mkversioned lib/libcxx.so.6 libcxx.so.6 'CXX_3.4.31 { global: old_fn; local: *; };' "
                        "'int old_fn(void) { return 0; }'\n"
                        "rm -r new"));
  Report r = Audit({t / "lib/libA.so"}, t.path());
  auto f = FindingsOf(r, "missing-version", t / "lib/libA.so");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].fields["library"], "libcxx.so.6");
  EXPECT_EQ(f[0].fields["version"], "CXX_3.4.32");
  EXPECT_EQ(f[0].fields["symbols"], nlohmann::ordered_json::array({"new_fn"}));
  EXPECT_THAT(f[0].message, HasSubstr("its newest is CXX_3.4.31"));
  // new_fn is reported once, on the version finding, not again as undefined-symbol.
  EXPECT_TRUE(FindingsOf(r, "undefined-symbol").empty());
}

TEST(MissingVersions, WeakVersionNeedIsNotAnError) {
  TempDir t;
  // A weak version reference (VER_FLG_WEAK) only draws a verbose warning from ld.so. GNU ld
  // never sets the flag, so the fixture sets it in the W_2 vernaux entry (vna_flags, +4).
  ASSERT_TRUE(BuildTree(
      t.path(),
      "mkversioned new/libw.so.1 libw.so.1 'W_1 { global: base; local: *; }; W_2 { global: extra; } W_1;' "
      "'int base(void) { return 0; } int extra(void) { return 1; }'\n"
      "mklib lib/libA.so libA.so 'int base(void); __attribute__((weak)) int extra(void); "
      "int a(void) { return base() + (extra ? extra() : 0); }' -nostdlib -Lnew -l:libw.so.1 "
      "-Wl,--enable-new-dtags,-rpath,/lib\n"
      "sec=$(readelf -V lib/libA.so | sed -n 's/.*Addr: 0x[0-9a-f]*  Offset: 0x\\([0-9a-f]*\\).*/\\1/p' | "
      "tail -1)\n"
      "aux=$(readelf -V lib/libA.so | sed -n 's/^  0x\\([0-9a-f]*\\):   Name: W_2.*/\\1/p')\n"
      "printf '\\002' | dd of=lib/libA.so bs=1 seek=$((0x$sec + 0x$aux + 4)) conv=notrunc status=none\n"
      "readelf -V lib/libA.so | grep -q 'Name: W_2  Flags: WEAK'\n"
      "mkversioned lib/libw.so.1 libw.so.1 'W_1 { global: base; local: *; };' 'int base(void) { return 0; "
      "}'\n"
      "rm -r new"));
  Report r = Audit({t / "lib/libA.so"}, t.path());
  EXPECT_TRUE(FindingsOf(r, "missing-version").empty());
  EXPECT_TRUE(FindingsOf(r, "undefined-symbol").empty());
}

// The newest of the family by version order, never a name without a version number; and a
// version no strong reference needs still stops ld.so (_dl_check_map_versions).
TEST(MissingVersions, NewestOfTheFamilyAndVersionsNoSymbolNeeds) {
  TempDir t;
  ASSERT_TRUE(
      BuildTree(t.path(),
                "mkversioned new/libcxx.so.6 libcxx.so.6 'CXX_3.4.9 { global: a9; local: *; }; "
                "CXX_3.4.31 { global: a31; } CXX_3.4.9; CXX_3.4.32 { global: a32; } CXX_3.4.31;' "
                "'int a9(void) { return 0; } int a31(void) { return 1; } int a32(void) { return 2; }'\n"
                "mklib lib/libA.so libA.so '__attribute__((weak)) int a32(void); int a(void) { return a32 ? "
                "a32() : 0; }' "
                "-nostdlib -Wl,--no-as-needed -Lnew -l:libcxx.so.6 -Wl,--enable-new-dtags,-rpath,/lib\n"
                "mkversioned lib/libcxx.so.6 libcxx.so.6 'CXX_3.4.31 { global: a31; local: *; }; "
                "CXX_3.4.9 { global: a9; } CXX_3.4.31; CXX_PRIVATE { global: p; } CXX_3.4.9;' "
                "'int a9(void) { return 0; } int a31(void) { return 1; } int p(void) { return 3; }'\n"
                "rm -r new"));
  Report r = Audit({t / "lib/libA.so"}, t.path());
  auto f = FindingsOf(r, "missing-version", t / "lib/libA.so");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].fields["version"], "CXX_3.4.32");
  EXPECT_THAT(f[0].message, HasSubstr("its newest is CXX_3.4.31)"));
  EXPECT_THAT(f[0].message, HasSubstr("refuses to load"));
  EXPECT_TRUE(f[0].fields["symbols"].empty());
}

}  // namespace
}  // namespace rocm_audit::testing
