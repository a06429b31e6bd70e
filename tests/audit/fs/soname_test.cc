// The one SONAME parser (audit/fs/soname.h): a family, its stem and its version, for every
// caller alike.
#include "audit/fs/soname.h"

#include <gtest/gtest.h>

namespace rocm_audit {
namespace {

TEST(Soname, FamilyStemAndVersion) {
  const std::optional<SonameParts> p = ParseSoname("libamdhip64.so.6.2.41134");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->family, "libamdhip64");
  EXPECT_EQ(p->stem, "libamdhip64.so");
  EXPECT_EQ(p->version, "6.2.41134");
  EXPECT_EQ(p->Major(), "6");
  EXPECT_TRUE(p->NumericVersion());
}

TEST(Soname, ALinkNameHasNoVersion) {
  const std::optional<SonameParts> p = ParseSoname("libfoo.so");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->family, "libfoo");
  EXPECT_EQ(p->stem, "libfoo.so");
  EXPECT_EQ(p->version, "");
  EXPECT_EQ(p->Major(), "");
  EXPECT_FALSE(p->NumericVersion());
}

// ".so" counts only where it ends the name or a '.' follows: "libx.sock.so.1" is the family
// "libx.sock", not "libx" with a version "ck.so.1".
TEST(Soname, TheSuffixIsTheFirstSoThatEndsOrIsFollowedByADot) {
  const std::optional<SonameParts> p = ParseSoname("libx.sock.so.1");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->family, "libx.sock");
  EXPECT_EQ(p->version, "1");
  const std::optional<SonameParts> hyphen = ParseSoname("libfoo.so.6-rc1");
  ASSERT_TRUE(hyphen);
  EXPECT_EQ(hyphen->Major(), "6-rc1");
  EXPECT_FALSE(hyphen->NumericVersion());
}

TEST(Soname, NoFamilyNoParts) {
  EXPECT_FALSE(ParseSoname("libfoo.a"));
  EXPECT_FALSE(ParseSoname(".so.1"));
  EXPECT_FALSE(ParseSoname("libfoo.sox"));
  EXPECT_FALSE(ParseSoname(""));
}

}  // namespace
}  // namespace rocm_audit
