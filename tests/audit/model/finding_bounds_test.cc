// The size bounds of findings (audit/model/finding.h): a string's bytes, an array's
// elements, a file's count of findings.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "audit/model/finding.h"

namespace rocm_audit::testing {
namespace {

TEST(FindingBounds, ALongStringKeepsItsStartTheCountLeftOutAndAHash) {
  EXPECT_EQ(BoundedText("libamdhip64.so.6"), "libamdhip64.so.6");
  const std::string name = "lib" + std::string(100000, 'a') + ".so";
  const std::string shown = BoundedText(name);
  EXPECT_EQ(shown.substr(0, kMaxFindingStringBytes), name.substr(0, kMaxFindingStringBytes));
  EXPECT_EQ(shown.substr(kMaxFindingStringBytes, 30), "... [91814 more bytes, FNV-1a ");
  EXPECT_EQ(shown.size(), kMaxFindingStringBytes + 30 + 16 + 1);
  // Same start, same length, different end: different text (so different keys).
  std::string other = name;
  other[other.size() - 4] = 'b';
  EXPECT_NE(BoundedText(other), shown);
  EXPECT_EQ(BoundedText(name), shown);  // the same on every run
}

TEST(FindingBounds, ACutNeverSplitsACharacter) {
  std::string text;
  while (text.size() < 2 * kMaxFindingStringBytes) text += "\xe2\x82\xac";  // U+20AC, 3 bytes
  const std::string shown = BoundedText(text);
  const size_t kept = shown.find("... [");
  ASSERT_NE(kept, std::string::npos);
  EXPECT_EQ(kept % 3, 0u);
  EXPECT_NO_THROW((void)nlohmann::json(shown).dump());  // strict: valid UTF-8
}

TEST(FindingBounds, ArraysAreCutAndTheMessageSaysWhat) {
  Finding f;
  f.message = "libx.so.1 not found";
  f.fields["library"] = std::string(20000, 'x');
  for (int i = 0; i < 12000; ++i) f.fields["searched"].push_back({{"directory", "/d" + std::to_string(i)}});
  BoundFindingSize(&f);
  EXPECT_EQ(f.fields["searched"].size(), kMaxFindingArrayElements);
  EXPECT_EQ(f.fields["searched"][0]["directory"], "/d0");
  EXPECT_LT(f.fields["library"].get<std::string>().size(), kMaxFindingStringBytes + 64);
  EXPECT_EQ(f.message,
            "libx.so.1 not found [left out of this finding's fields: searched: 2000 more elements]");
}

TEST(FindingBounds, ASinkKeepsTheMostSevereWithinItsLimitAndCountsTheRest) {
  FindingSink sink(3);
  for (int i = 0; i < 10; ++i) {
    Finding f;
    f.severity = Severity::kNote;
    f.message = "note " + std::to_string(i);
    sink.Add(f);
  }
  Finding error;
  error.severity = Severity::kError;
  error.message = "the error";
  sink.Add(error);
  EXPECT_LE(sink.findings.size(), 6u);  // never more than twice the limit held
  std::vector<Finding> kept = std::move(sink).SortedWithinLimit();
  ASSERT_EQ(kept.size(), 3u);
  EXPECT_EQ(kept[0].message, "the error");
  EXPECT_EQ(kept[1].message, "note 0");
  EXPECT_EQ(kept[2].message, "note 1");
  EXPECT_EQ(sink.left_out, 8u);
  FindingSink unlimited;
  for (int i = 0; i < 100; ++i) unlimited.Add(error);
  EXPECT_EQ(std::move(unlimited).SortedWithinLimit().size(), 100u);
}

}  // namespace
}  // namespace rocm_audit::testing
