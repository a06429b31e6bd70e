// Waiver and --enable globs: fnmatch, plus the soname rule auditwheel's --exclude lacked.
#include "policy/name_glob.h"

#include <gtest/gtest.h>

namespace rocm_audit {
namespace {

TEST(NameGlob, ALibraryPatternMatchesItsVersionedNames) {
  EXPECT_TRUE(NameGlobMatches("librocblas.so*", "librocblas.so.4.2"));
  EXPECT_TRUE(NameGlobMatches("librocblas.so", "librocblas.so.4.2"));
  EXPECT_TRUE(NameGlobMatches("librocblas.so", "librocblas.so"));
  EXPECT_TRUE(NameGlobMatches("librocblas.so.4", "librocblas.so.4.2"));
  EXPECT_TRUE(NameGlobMatches("librocblas.so.4", "librocblas.so.4"));
}

TEST(NameGlob, NoOtherLibraryAndNoOtherMajor) {
  EXPECT_FALSE(NameGlobMatches("librocblas.so", "librocblas_fortran.so.4"));
  EXPECT_FALSE(NameGlobMatches("librocblas.so.4", "librocblas.so.40"));
  EXPECT_FALSE(NameGlobMatches("librocblas.so.4", "librocblas.so"));
  EXPECT_FALSE(NameGlobMatches("librocblas.so", "librocblas.sox.4"));
  EXPECT_FALSE(NameGlobMatches("libx.so", "libx.so.4a"));
}

TEST(NameGlob, PlainGlobsAndSlashes) {
  EXPECT_TRUE(GlobMatches("ps_*", "ps_pglobal_lookup"));
  EXPECT_TRUE(GlobMatches("cmake-*", "cmake-missing-file"));
  EXPECT_FALSE(GlobMatches("cmake-*", "undefined-symbol"));
  EXPECT_TRUE(GlobMatches("usr/*/libthread_db.so*", "usr/lib/x86_64-linux-gnu/libthread_db.so.1"));
  EXPECT_TRUE(NameGlobMatches("usr/lib/*/libthread_db.so", "usr/lib/x86_64-linux-gnu/libthread_db.so.1"));
}

// A glob is written as the report writes names: \xNN is that byte, matched as itself.
TEST(NameGlob, WrittenBytesMatchThoseBytesAndNothingElse) {
  const std::string fe = GlobOfWrittenText("lib/lib\\xfe*.so");
  EXPECT_TRUE(GlobMatches(fe, "lib/lib\xfe.so"));
  EXPECT_TRUE(GlobMatches(fe,
                          "lib/lib\xfe"
                          "2.so"));
  EXPECT_FALSE(GlobMatches(fe, "lib/lib\xff.so"));
  EXPECT_FALSE(GlobMatches(fe, "lib/lib\\xfe.so"));
  // "\\x" is a backslash and an x, as the report writes a file named with them.
  const std::string literal = GlobOfWrittenText("lib\\\\xfe.so");
  EXPECT_TRUE(GlobMatches(literal, "lib\\xfe.so"));
  EXPECT_FALSE(GlobMatches(literal, "lib\xfe.so"));
  // The byte of a glob character is that character, not the wildcard.
  EXPECT_TRUE(GlobMatches(GlobOfWrittenText("a\\x2a"), "a*"));
  EXPECT_FALSE(GlobMatches(GlobOfWrittenText("a\\x2a"), "ab"));
  EXPECT_EQ(GlobOfWrittenText("ps_*"), "ps_*");
  EXPECT_EQ(GlobOfWrittenText("a\\*"), "a\\*");
}

}  // namespace
}  // namespace rocm_audit
