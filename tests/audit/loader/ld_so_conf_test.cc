#include "audit/loader/ld_so_conf.h"

#include <gtest/gtest.h>

#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

TEST(LdSoConf, IncludeGlobsCommentsHwcapAndDuplicates) {
  TempDir t;
  ASSERT_TRUE(
      BuildTree(t.path(),
                "mkdir -p etc/ld.so.conf.d\n"
                "printf '/first # trailing comment\\ninclude ld.so.conf.d/*.conf\\nhwcap 0 "
                "nosegneg\\n/last:/also,/third\\n' > etc/ld.so.conf\n"
                "printf '# libc default configuration\\n/usr/local/lib\\n' > etc/ld.so.conf.d/libc.conf\n"
                "printf '/opt/rocm/lib/\\n/first\\n/old=libc6\\n' > etc/ld.so.conf.d/rocm.conf\n"
                "echo '/not/a/conf' > etc/ld.so.conf.d/rocm.conf.disabled"));
  RootedFs fs(t.path());
  EXPECT_EQ(ReadLdSoConf(fs, "/etc/ld.so.conf"),
            (std::vector<std::string>{"/first", "/usr/local/lib", "/opt/rocm/lib", "/old", "/last", "/also",
                                      "/third"}));
}

TEST(LdSoConf, IncludeCycleAndMissingFileAreHarmless) {
  TempDir t;
  ASSERT_TRUE(
      BuildTree(t.path(), "mkdir -p etc && printf '/a\\ninclude /etc/ld.so.conf\\n' > etc/ld.so.conf"));
  RootedFs fs(t.path());
  EXPECT_EQ(ReadLdSoConf(fs, "/etc/ld.so.conf"), std::vector<std::string>{"/a"});
  EXPECT_TRUE(ReadLdSoConf(fs, "/etc/missing.conf").empty());
}

}  // namespace
}  // namespace rocm_audit::testing
