// malformed-file: parse problems as findings, their severity by kind.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/audit_support.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

TEST(MalformedFile, TruncatedElfIsAnErrorWithItsReason) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
                        "mklib lib/libok.so libok.so 'int ok(void) { return 0; }' -nostdlib\n"
                        "head -c 100 lib/libok.so > lib/libcut.so"));
  Report r = Audit({t / "lib"}, t.path());
  auto f = FindingsOf(r, "malformed-file", t / "lib/libcut.so");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kError);
  EXPECT_FALSE(f[0].fields["reason"].get<std::string>().empty());
  EXPECT_TRUE(FindingsOf(r, "malformed-file", t / "lib/libok.so").empty());
}

// What every -dbgsym package installs: objcopy --only-keep-debug keeps the program headers
// and makes the loaded sections NOBITS (PT_DYNAMIC with no bytes in the file). It is a
// separate debug file, reported as its kind, never malformed and never loaded.
TEST(MalformedFile, ASeparateDebugFileIsItsOwnKindNotMalformed) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
                        "mklib lib/libok.so.1 libok.so.1 'int ok(void) { return 0; }' -g -nostdlib\n"
                        "mkdir -p usr/lib/debug/.build-id/ab && objcopy --only-keep-debug lib/libok.so.1 "
                        "usr/lib/debug/.build-id/ab/cdef.debug\n"
                        "objcopy --strip-debug --add-gnu-debuglink=usr/lib/debug/.build-id/ab/cdef.debug "
                        "lib/libok.so.1"));
  Report r = Audit({t.path()}, t.path());
  EXPECT_TRUE(FindingsOf(r, "malformed-file").empty());
  const std::string debug = t / "usr/lib/debug/.build-id/ab/cdef.debug";
  bool seen = false;
  for (const FileFacts& f : r.files) {
    if (f.path != debug) continue;
    seen = true;
    EXPECT_EQ(f.kind, "elf-debug-info");
    EXPECT_FALSE(f.closure) << "ld.so refuses a debug file: it has no closure";
  }
  EXPECT_TRUE(seen);
}

TEST(MalformedFile, TextNamedLikeALibraryIsANote) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), "mkdir -p lib && echo hello > lib/libfake.so.1"));
  Report r = Audit({t / "lib"}, t.path());
  auto f = FindingsOf(r, "malformed-file");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kNote);
  EXPECT_EQ(f[0].fields["reason"], "is neither ELF nor a linker script");
}

TEST(MalformedFile, BrokenArchiveIsAnError) {
  TempDir t;
  ASSERT_TRUE(
      BuildTree(t.path(), "mkdir -p lib && printf '!<arch>\\nnot a member header at all' > lib/libbad.a"));
  Report r = Audit({t / "lib"}, t.path());
  auto f = FindingsOf(r, "malformed-file");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kError);
}

}  // namespace
}  // namespace rocm_audit::testing
