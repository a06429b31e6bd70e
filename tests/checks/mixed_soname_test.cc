// mixed-soname: two majors of one library in one closure (error) and across the tree (warning).
#include <gtest/gtest.h>

#include "tests/support/audit_support.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

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
  EXPECT_EQ(closure[0].fields["scope"], "closure");
  EXPECT_EQ(closure[0].fields["library"], "libamdhip64");
  // Across the tree: one warning, on the file that needs the minority soname.
  int tree = 0;
  for (const Finding& f : FindingsOf(r, "mixed-soname"))
    if (f.fields["scope"] == "tree") {
      ++tree;
      EXPECT_EQ(f.severity, Severity::kWarning);
      EXPECT_EQ(f.file, t / "lib/librccl.so.1");
    }
  EXPECT_EQ(tree, 1);
}

}  // namespace
}  // namespace rocm_audit::testing
