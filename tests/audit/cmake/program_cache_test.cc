// The parsed list files a run keeps: each file parsed once while the evaluation that runs it
// lasts, and dropped when that evaluation ends unless something holds it (a function it
// defines) or another evaluation ran it too. Counted in parses (ProgramsParsed), never in
// bytes or time.
#include "audit/cmake/program_cache.h"

#include <gtest/gtest.h>
#include <filesystem>

#include "audit/cmake/installed_files.h"
#include "audit/fs/rooted_fs.h"
#include "tests/support/scratch_dir_test.h"

namespace rocm_audit {
namespace {

class ProgramCacheTest : public testing::ScratchDirTest {
 protected:
  // The program of `path`, and how many files were parsed to get it.
  size_t ParsesOf(const std::string& path, ProgramPtr* out = nullptr, const InstalledFiles* files = nullptr) {
    const size_t before = ProgramsParsed();
    std::string why;
    ProgramPtr p = cache_.Get(path, size_t(1) << 20, files ? *files : files_, &why);
    EXPECT_TRUE(p) << why;
    if (out) *out = p;
    return ProgramsParsed() - before;
  }

  RootedFs fs_;
  InstalledFiles files_{fs_, {}};
  ProgramCache cache_;
};

// In a world that holds still (an audit's), a file kept is not read again while the run
// lasts: every pass of a package runs its files. Once dropped it is read anew.
TEST_F(ProgramCacheTest, AFileKeptOfAStillWorldIsNotReadAgainUntilDropped) {
  const InstalledFiles still = files_.RememberingExistence();
  const std::string f = Write("a/AConfig.cmake", "set(x 1)\n");
  ProgramPtr first;
  EXPECT_EQ(ParsesOf(f, &first, &still), 1u);
  std::filesystem::remove(f);
  ProgramPtr again;
  EXPECT_EQ(ParsesOf(f, &again, &still), 0u);
  EXPECT_EQ(again, first);
  first.reset();
  again.reset();
  cache_.ForgetUnshared();
  std::string why;
  EXPECT_FALSE(cache_.Get(f, size_t(1) << 20, still, &why));
  EXPECT_EQ(why, "does not exist");
}

TEST_F(ProgramCacheTest, AFileIsParsedOnceWhileItsEvaluationLasts) {
  const std::string targets = Write("a/ATargets.cmake", "add_library(A::a INTERFACE IMPORTED)\n");
  EXPECT_EQ(ParsesOf(targets), 1u);
  EXPECT_EQ(ParsesOf(targets), 0u);  // the next pass of the same package
}

// A Targets file only its package runs is dropped when that package's evaluation ends; a
// later evaluation that runs it after all parses it once more, and from then on it is kept.
TEST_F(ProgramCacheTest, AFileOneEvaluationRanIsDroppedWhenItEnds) {
  const std::string targets = Write("a/ATargets.cmake", "add_library(A::a INTERFACE IMPORTED)\n");
  EXPECT_EQ(ParsesOf(targets), 1u);
  cache_.ForgetUnshared();
  EXPECT_EQ(ParsesOf(targets), 1u);
  cache_.ForgetUnshared();
  EXPECT_EQ(ParsesOf(targets), 0u);
}

// A file whose program is held (a function it defines, kept with the package's commands) is
// not dropped: parsing it again would make a second copy, not free the first.
TEST_F(ProgramCacheTest, AFileWhoseProgramIsHeldIsKept) {
  const std::string macros = Write("a/AMacros.cmake", "function(a_f)\nendfunction()\n");
  ProgramPtr held;
  EXPECT_EQ(ParsesOf(macros, &held), 1u);
  cache_.ForgetUnshared();
  EXPECT_EQ(ParsesOf(macros), 0u);
}

// One held when its evaluation ended is dropped at a later end, once no one holds it.
TEST_F(ProgramCacheTest, AFileHeldWhenItsEvaluationEndedIsDroppedOnceReleased) {
  const std::string macros = Write("a/AMacros.cmake", "function(a_f)\nendfunction()\n");
  ProgramPtr held;
  EXPECT_EQ(ParsesOf(macros, &held), 1u);
  cache_.ForgetUnshared();
  held.reset();
  cache_.ForgetUnshared();
  EXPECT_EQ(ParsesOf(macros), 1u);
}

// A file that changed is parsed again, whatever was kept of it.
TEST_F(ProgramCacheTest, AFileThatChangedIsParsedAgain) {
  const std::string f = Write("a/AConfig.cmake", "set(x 1)\n");
  ProgramPtr held;
  EXPECT_EQ(ParsesOf(f, &held), 1u);
  Write("a/AConfig.cmake", "set(x 2)\n");
  EXPECT_EQ(ParsesOf(f), 1u);
}

}  // namespace
}  // namespace rocm_audit
