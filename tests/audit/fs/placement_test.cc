// Where an absolute path lands: audited paths, the installed system, a store path, outside.
#include "audit/fs/placement.h"

#include <gtest/gtest.h>

#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

TEST(Placement, StorePathsOfNixGuixAndSpack) {
  EXPECT_EQ(StorePathOf("/nix/store/0123456789abcdfghijklmnpqrsvwxyz-hip-6.2.2/lib/cmake"),
            "/nix/store/0123456789abcdfghijklmnpqrsvwxyz-hip-6.2.2");
  EXPECT_EQ(StorePathOf("/gnu/store/0123456789abcdfghijklmnpqrsvwxyz-glibc-2.39"),
            "/gnu/store/0123456789abcdfghijklmnpqrsvwxyz-glibc-2.39");
  EXPECT_EQ(StorePathOf("/s/opt/spack/linux-x86_64/gcc-12/hip-6.2-abc/lib"),
            "/s/opt/spack/linux-x86_64/gcc-12/hip-6.2-abc");
  EXPECT_EQ(StorePathOf("/nix/store/short-name/lib"), "");
  EXPECT_EQ(StorePathOf("/s/opt/spack/linux-x86_64"), "");
  EXPECT_EQ(StorePathOf("/usr/lib"), "");
}

TEST(Placement, AuditedSystemStoreOrOutside) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), "mkdir -p root/usr/lib/x root/opt/pkg/lib"));
  RootedFs host;
  EXPECT_EQ(PlaceAbsolutePath("/opt/pkg/lib", {"/opt/pkg"}, host), Placement::kAudited);
  EXPECT_EQ(PlaceAbsolutePath("/opt/rocm/lib", {"/opt/pkg"}, host), Placement::kOutside);
  RootedFs rooted(t / "root");
  EXPECT_EQ(PlaceAbsolutePath("/opt/pkg/lib", {t / "root/opt/pkg"}, rooted), Placement::kAudited);
  EXPECT_EQ(PlaceAbsolutePath("/usr/lib/x", {t / "root/opt/pkg"}, rooted), Placement::kSystem);
  EXPECT_EQ(PlaceAbsolutePath("/usr/lib/missing", {t / "root/opt/pkg"}, rooted), Placement::kOutside);
  EXPECT_EQ(PlaceAbsolutePath("/nix/store/0123456789abcdfghijklmnpqrsvwxyz-x/lib", {}, rooted),
            Placement::kStore);
}

}  // namespace
}  // namespace rocm_audit::testing
