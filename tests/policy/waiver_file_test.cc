// The --suppress file: every waiver has a reason, names a real check, and matches by the
// file's path below the audited input (or its name) and the rule's key fields.
#include "policy/waiver_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace rocm_audit {
namespace {

using ::testing::HasSubstr;

const Rule kRules[] = {
    {
        .id = "undefined-symbol",
        .severity = Severity::kError,
        .title = "t",
        .fix = "f",
        .key_fields = "symbol version",
    },
    {
        .id = "unresolved-library",
        .severity = Severity::kError,
        .title = "t",
        .fix = "f",
        .key_fields = "library",
    },
    {
        .id = "cmake-missing-file",
        .severity = Severity::kError,
        .title = "t",
        .fix = "f",
        .key_fields = "package via referenced",
    },
};

std::vector<Waiver> Parse(const std::string& text, std::string* error) {
  std::vector<Waiver> out;
  EXPECT_TRUE(ParseWaivers(text, "w.txt", kRules, &out, error)) << *error;
  return out;
}

TEST(WaiverFile, ParsesChecksGlobsKeysAndReasons) {
  std::string error;
  auto w = Parse(
      "# accepted defects of this tree\n"
      "\n"
      "undefined-symbol  libthread_db.so*  ps_*   # gdb provides the ps_* callbacks\n"
      "  unresolved-library usr/lib/*/hipcc #  hipcc's libgcc_s comes from the compiler  \n"
      "cmake-* */AMDDeviceLibsConfig.cmake # Debian bug: bitcode path\n",
      &error);
  ASSERT_EQ(w.size(), 3u);
  EXPECT_EQ(w[0].check, "undefined-symbol");
  EXPECT_EQ(w[0].path, "libthread_db.so*");
  EXPECT_EQ(w[0].key, "ps_*");
  EXPECT_EQ(w[0].reason, "gdb provides the ps_* callbacks");
  EXPECT_EQ(w[0].Source(), "w.txt:3");
  EXPECT_EQ(w[1].key, "");
  EXPECT_EQ(w[1].reason, "hipcc's libgcc_s comes from the compiler");
  EXPECT_EQ(w[2].check, "cmake-*");
  EXPECT_EQ(w[2].line, 5u);
}

TEST(WaiverFile, AWaiverWithoutAReasonIsRefusedWithItsFileAndLine) {
  std::vector<Waiver> out;
  std::string error;
  EXPECT_FALSE(ParseWaivers("undefined-symbol libA.so f # ok\nundefined-symbol libB.so g\n", "w.txt", kRules,
                            &out, &error));
  EXPECT_THAT(error, HasSubstr("w.txt:2:")) << error;
  EXPECT_THAT(error, HasSubstr("no reason")) << error;
  error.clear();
  EXPECT_FALSE(ParseWaivers("undefined-symbol libA.so f #   \n", "w.txt", kRules, &out, &error));
  EXPECT_THAT(error, HasSubstr("w.txt:1:")) << error;
}

TEST(WaiverFile, BadLinesAndUnknownChecksAreRefused) {
  std::vector<Waiver> out;
  std::string error;
  EXPECT_FALSE(ParseWaivers("undefined-symbol # only a check\n", "w", kRules, &out, &error));
  EXPECT_THAT(error, HasSubstr("w:1:"));
  EXPECT_FALSE(ParseWaivers("undefined-symbol a b c # four fields\n", "w", kRules, &out, &error));
  EXPECT_FALSE(ParseWaivers("undefined-symbols libA.so # a typo\n", "w", kRules, &out, &error));
  EXPECT_THAT(error, HasSubstr("names no check")) << error;
}

Finding Undefined(const std::string& file, const std::string& symbol) {
  Finding f{"undefined-symbol", Severity::kError, file, "m", "h"};
  f.fields["symbol"] = symbol;
  f.fields["version"] = nullptr;
  return f;
}

TEST(WaiverFile, MatchesByNameOrByPathBelowTheInputAndByKey) {
  std::string error;
  auto w = Parse(
      "undefined-symbol libthread_db.so ps_* # by name, soname rule\n"
      "undefined-symbol /usr/lib/*/libx.so.1 # by path from the top of the input\n",
      &error);
  Finding f = Undefined("root/usr/lib/x86_64-linux-gnu/libthread_db.so.1", "ps_pglobal_lookup");
  const std::string path = "usr/lib/x86_64-linux-gnu/libthread_db.so.1";
  EXPECT_TRUE(WaiverMatches(w[0], f, path, {"ps_pglobal_lookup", "null"}));
  EXPECT_FALSE(WaiverMatches(w[0], f, path, {"td_init", "null"}));
  EXPECT_FALSE(WaiverMatches(w[1], f, path, {"ps_pglobal_lookup", "null"}));
  Finding x = Undefined("root/usr/lib/x86_64-linux-gnu/libx.so.1", "anything");
  EXPECT_TRUE(WaiverMatches(w[1], x, "usr/lib/x86_64-linux-gnu/libx.so.1", {"anything", "null"}));
  EXPECT_FALSE(WaiverMatches(w[1], x, "opt/usr/lib/x86_64-linux-gnu/libx.so.1", {"anything", "null"}));
  Finding other{"unresolved-library", Severity::kError, x.file, "m", "h"};
  EXPECT_FALSE(WaiverMatches(w[1], other, "usr/lib/x86_64-linux-gnu/libx.so.1", {"libgcc_s.so.1"}));
}

}  // namespace
}  // namespace rocm_audit
