// Version families and their order: what missing-version calls "its newest".
#include "audit/elf/version_order.h"

#include <gtest/gtest.h>

namespace rocm_audit {
namespace {

TEST(VersionOrder, NumbersCompareAsNumbersWithinAFamily) {
  std::vector<std::string_view> glibc = {"GLIBC_2.2.5", "GLIBC_2.36", "GLIBC_2.4", "GLIBC_PRIVATE",
                                         "GLIBC_2.9"};
  EXPECT_EQ(NewestOfFamily(glibc, "GLIBC_2.38"), "GLIBC_2.36");
  std::vector<std::string_view> cxx = {"GLIBCXX_3.4",   "GLIBCXX_3.4.30",  "GLIBCXX_3.4.9",
                                       "CXXABI_1.3.13", "CXXABI_FLOAT128", "CXXABI_TM_1"};
  EXPECT_EQ(NewestOfFamily(cxx, "GLIBCXX_3.4.32"), "GLIBCXX_3.4.30");
  EXPECT_EQ(NewestOfFamily(cxx, "CXXABI_1.3.15"), "CXXABI_1.3.13");
  EXPECT_EQ(NewestOfFamily(cxx, "CXXABI_TM_2"), "CXXABI_TM_1");
}

TEST(VersionOrder, NamesWithoutANumberBelongToNoFamily) {
  EXPECT_FALSE(ParseVersionName("GLIBC_PRIVATE"));
  EXPECT_FALSE(ParseVersionName("CXXABI_FLOAT128."));
  EXPECT_EQ(NewestOfFamily({"GLIBC_PRIVATE"}, "GLIBC_PRIVATE"), "");
  EXPECT_EQ(NewestOfFamily({"FOO_1.0"}, "BAR_2.0"), "");
  auto v = ParseVersionName("LIBROCFFT_1.0");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->family, "LIBROCFFT_");
  EXPECT_EQ(v->parts, (std::vector<unsigned>{1, 0}));
}

}  // namespace
}  // namespace rocm_audit
