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

}  // namespace
}  // namespace rocm_audit
