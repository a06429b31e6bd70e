// mixed-soname: two majors of one library in one closure (error) and across the tree (warning).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/audit_support.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::IsEmpty;
using ::testing::Not;

TEST(MixedSoname, TwoMajorsInOneClosureIsAnError) {
  TempDir t;
  ASSERT_TRUE(BuildTree(
      t.path(),
      "mklib lib/libamdhip64.so.5 libamdhip64.so.5 'int hip5(void) { return 5; }' -nostdlib\n"
      "mklib lib/libamdhip64.so.6 libamdhip64.so.6 'int hip6(void) { return 6; }' -nostdlib\n"
      "mklib lib/librccl.so.1 librccl.so.1 'int hip5(void); int rccl(void) { return hip5(); }' -nostdlib "
      "-Llib -l:libamdhip64.so.5 -Wl,-rpath,'$ORIGIN'\n"
      "mklib lib/libtorch.so libtorch.so 'int hip6(void); int rccl(void); int t(void) { return hip6() + "
      "rccl(); }' "
      "-nostdlib -Llib -l:libamdhip64.so.6 -l:librccl.so.1 -Wl,--enable-new-dtags,-rpath,'$ORIGIN'"));
  Report r = Audit({t.path()}, t.path());
  auto closure = FindingsOf(r, "mixed-soname", t / "lib/libtorch.so");
  ASSERT_EQ(closure.size(), 1u);
  EXPECT_EQ(closure[0].severity, Severity::kError);
  // Both sonames, and who needs each: where a fix starts.
  EXPECT_EQ(closure[0].fields["majors"],
            "libamdhip64.so.5 (needed by librccl.so.1), libamdhip64.so.6 (needed by libtorch.so)");
  EXPECT_EQ(closure[0].fields["scope"], "closure");
  EXPECT_EQ(closure[0].fields["library"], "libamdhip64");
  // Across the tree: one warning, on the file that needs the minority soname.
  int tree = 0;
  for (const Finding& f : FindingsOf(r, "mixed-soname"))
    if (f.fields["scope"] == "tree") {
      ++tree;
      EXPECT_EQ(f.severity, Severity::kWarning);
      EXPECT_EQ(f.file, t / "lib/librccl.so.1");
      EXPECT_EQ(f.fields["majors"],
                "libamdhip64.so.5 (needed by librccl.so.1), libamdhip64.so.6 (needed by libtorch.so)");
    }
  EXPECT_EQ(tree, 1);
}

// A major ld.so does not find maps nothing: that is unresolved-library's finding, not two
// majors in one process, nor across the tree.
TEST(MixedSoname, AMajorThatIsNotFoundIsNotMixed) {
  TempDir t;
  ASSERT_TRUE(BuildTree(
      t.path(),
      "mklib build/libamdhip64.so.5 libamdhip64.so.5 'int hip5(void) { return 5; }' -nostdlib\n"
      "mklib lib/libamdhip64.so.6 libamdhip64.so.6 'int hip6(void) { return 6; }' -nostdlib\n"
      "mklib lib/librccl.so.1 librccl.so.1 'int hip5(void); int rccl(void) { return hip5(); }' -nostdlib "
      "-Lbuild -l:libamdhip64.so.5 -Wl,-rpath,'$ORIGIN'\n"
      "mklib lib/libtorch.so libtorch.so 'int hip6(void); int rccl(void); int t(void) { return hip6() + "
      "rccl(); }' -nostdlib -Llib -Lbuild -l:libamdhip64.so.6 -l:librccl.so.1 "
      "-Wl,--enable-new-dtags,-rpath,'$ORIGIN'\nrm -r build"));
  Report r = Audit({t / "lib"}, t.path());
  EXPECT_THAT(FindingsOf(r, "mixed-soname"), IsEmpty());
  EXPECT_THAT(FindingsOf(r, "unresolved-library"), Not(IsEmpty())) << "the control: .so.5 is missing";
}

// Two names of one file (a libfoo.so.5 link to libfoo.so.6's file) are one copy in the
// process: no two majors.
TEST(MixedSoname, TwoNamesOfOneFileAreOneCopy) {
  TempDir t;
  ASSERT_TRUE(BuildTree(
      t.path(),
      "mklib lib/libamdhip64.so.6 libamdhip64.so.6 'int hip5(void) { return 5; } int hip6(void) { return 6; "
      "}' "
      "-nostdlib\nmklib build/libamdhip64.so.5 libamdhip64.so.5 'int hip5(void) { return 5; }' -nostdlib\n"
      "mklib lib/librccl.so.1 librccl.so.1 'int hip5(void); int rccl(void) { return hip5(); }' -nostdlib "
      "-Lbuild -l:libamdhip64.so.5 -Wl,-rpath,'$ORIGIN'\nrm -r build && ln -s libamdhip64.so.6 "
      "lib/libamdhip64.so.5\n"
      "mklib lib/libtorch.so libtorch.so 'int hip6(void); int rccl(void); int t(void) { return hip6() + "
      "rccl(); }' -nostdlib -Llib -l:libamdhip64.so.6 -l:librccl.so.1 "
      "-Wl,--enable-new-dtags,-rpath,'$ORIGIN'"));
  Report r = Audit({t / "lib"}, t.path());
  EXPECT_THAT(FindingsOf(r, "mixed-soname"), IsEmpty());
}

// Across the tree, files that cannot share a process are never mixed: another machine's
// libfoo.so.2 beside this one's libfoo.so.1. The control is the same tree for one machine.
TEST(MixedSoname, TreeWideOnlyWithinOneMachine) {
  for (const bool other_machine : {true, false}) {
    TempDir t;
    const std::string cc2 = other_machine ? "clang-19 --target=aarch64-linux-gnu -fuse-ld=lld" : "$CC";
    ASSERT_TRUE(BuildTree(
        t.path(),
        "mklib lib/libfoo.so.1 libfoo.so.1 'int foo(void) { return 1; }' -nostdlib\n"
        "mklib lib/libone.so libone.so 'int foo(void); int one(void) { return foo(); }' -nostdlib -Llib "
        "-l:libfoo.so.1 -Wl,-rpath,'$ORIGIN'\n"
        "mkdir -p other && printf 'int foo(void) { return 2; }' > other/foo.c && printf 'int foo(void); int "
        "two(void) { return foo(); }' > other/two.c\n" +
            cc2 + " -shared -fPIC -nostdlib -o other/libfoo.so.2 other/foo.c -Wl,-soname,libfoo.so.2\n" +
            cc2 +
            " -shared -fPIC -nostdlib -o other/libtwo.so other/two.c -Lother -l:libfoo.so.2 "
            "-Wl,-rpath,'$ORIGIN'\nrm other/*.c"));
    Report r = Audit({t.path()}, t.path());
    EXPECT_EQ(FindingsOf(r, "mixed-soname").size(), other_machine ? 0u : 1u) << other_machine;
  }
}

}  // namespace
}  // namespace rocm_audit::testing
