// Finding keys: the same finding has the same key whatever the machine, the working
// directory or the spelling of the PATH argument.
#include "policy/finding_key.h"

#include <gtest/gtest.h>

namespace rocm_audit {
namespace {

TEST(FindingKey, PathIsBelowTheInputThatReachedIt) {
  EXPECT_EQ(PathBelowInput("build/tree/lib/libx.so.1", {"build/tree"}), "lib/libx.so.1");
  EXPECT_EQ(PathBelowInput("build/tree/lib/libx.so.1", {"build/tree/"}), "lib/libx.so.1");
  EXPECT_EQ(PathBelowInput("a/lib/libx.so.1", {"a", "a/lib"}), "libx.so.1");  // the longest input
  EXPECT_EQ(PathBelowInput("path/to/libMIOpen.so", {"path/to/libMIOpen.so"}), "libMIOpen.so");
  EXPECT_EQ(PathBelowInput("/usr/lib/libx.so", {"/"}), "usr/lib/libx.so");
  EXPECT_EQ(PathBelowInput("build/treeX/lib/libx.so", {"build/tree"}), "build/treeX/lib/libx.so");
}

TEST(FindingKey, SameFindingSameKeyFromAnotherDirectory) {
  Finding a{"unresolved-library", Severity::kError, "build/tree/bin/app", "m", "h"};
  a.fields["library"] = "libgcc_s.so.1";
  a.fields["searched"] = nlohmann::ordered_json::array({"/home/alice/build/tree/lib"});  // not a key field
  Finding b = a;
  b.file = "/srv/ci/checkout/tree/bin/app";
  b.fields["searched"] = nlohmann::ordered_json::array({"/srv/ci/checkout/tree/lib"});
  EXPECT_EQ(FindingKey(a, "library", {"build/tree"}), FindingKey(b, "library", {"/srv/ci/checkout/tree"}));
  EXPECT_EQ(FindingKey(a, "library", {"build/tree"}), "unresolved-library|bin/app|library=libgcc_s.so.1");
}

TEST(FindingKey, KeyFieldsTellFindingsApartAndPathsInThemAreRelative) {
  Finding f{"cmake-missing-file", Severity::kError, "/x/p/lib/cmake/W/WConfig.cmake", "m", "h"};
  f.fields["package"] = "W";
  f.fields["via"] = "include";
  f.fields["referenced"] = "/x/p/lib/cmake/W/WTargets.cmake";
  EXPECT_EQ(FindingKey(f, "package via referenced", {"/x/p"}),
            "cmake-missing-file|lib/cmake/W/WConfig.cmake|package=W|via=include|referenced=lib/cmake/W/"
            "WTargets.cmake");
  Finding g = f;
  g.fields["referenced"] = "/x/p/lib/libw.so.1";
  EXPECT_NE(FindingKey(f, "package via referenced", {"/x/p"}),
            FindingKey(g, "package via referenced", {"/x/p"}));
  EXPECT_EQ(KeyValues(f, "package via"), (std::vector<std::string>{"W", "include"}));
}

}  // namespace
}  // namespace rocm_audit
