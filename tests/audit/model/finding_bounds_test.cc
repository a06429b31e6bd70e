// The size bounds of findings (audit/model/finding.h): a string's bytes, an array's
// elements, a file's count of findings.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "audit/model/finding.h"
#include "audit/model/message_numbers.h"

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

TEST(FindingBounds, ASinkKeepsTheMostSevereWithinItsBytesTheFirstWhateverItsSize) {
  auto finding = [](Severity severity, size_t bytes) {
    Finding f;
    f.severity = severity;
    f.message = std::string(bytes, 'm');
    return f;
  };
  FindingSink sink(FindingLimits{.count = 100, .bytes = 1000}, {});
  for (int i = 0; i < 50; ++i) sink.Add(finding(Severity::kNote, 300));
  sink.Add(finding(Severity::kError, 5000));  // alone past the budget: kept, being the first
  EXPECT_LE(sink.findings.size(), 8u);        // within twice the budget held (and one over)
  std::vector<Finding> kept = std::move(sink).SortedWithinLimit();
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept[0].severity, Severity::kError);
  EXPECT_EQ(sink.left_out, 50u);
  EXPECT_EQ(sink.left_out_for_bytes, 50u);
  EXPECT_EQ(sink.bytes_left_out, 50u * 300);
  EXPECT_EQ(FindingBytes(kept[0]), 5000u);

  FindingSink notes(FindingLimits{.count = 100, .bytes = 1000}, {});
  for (int i = 0; i < 5; ++i) notes.Add(finding(Severity::kNote, 300));
  EXPECT_EQ(std::move(notes).SortedWithinLimit().size(), 3u);  // 900 bytes fit, 1,200 do not
  EXPECT_EQ(notes.left_out_for_bytes, 2u);

  // The count cap first: what it leaves out is not counted against the bytes.
  FindingSink both(FindingLimits{.count = 2, .bytes = 1000}, {});
  for (int i = 0; i < 5; ++i) both.Add(finding(Severity::kNote, 10));
  EXPECT_EQ(std::move(both).SortedWithinLimit().size(), 2u);
  EXPECT_EQ(both.left_out, 3u);
  EXPECT_EQ(both.left_out_for_bytes, 0u);
}

// The tree's findings keep the order the checks made them in (CheckTree): WithinLimit keeps
// the findings SortedWithinLimit keeps, the most severe, and counts the same left out, in the
// order they came, also across the cut that bounds the sink's memory (past twice the count).
TEST(FindingBounds, WithinLimitKeepsTheMostSevereInTheOrderTheyCame) {
  const Severity cycle[] = {Severity::kNote, Severity::kError, Severity::kWarning};
  FindingSink sorted(FindingLimits{.count = 5}, {}), in_order(FindingLimits{.count = 5}, {});
  for (int i = 0; i < 12; ++i) {
    Finding f;
    f.severity = cycle[i % 3];
    f.message = std::to_string(i);
    sorted.Add(f);
    in_order.Add(f);
  }
  auto messages = [](const std::vector<Finding>& findings) {
    std::vector<std::string> out;
    for (const Finding& f : findings) out.push_back(f.message);
    return out;
  };
  EXPECT_EQ(messages(std::move(sorted).SortedWithinLimit()),
            (std::vector<std::string>{"1", "4", "7", "10", "2"}));
  EXPECT_EQ(messages(std::move(in_order).WithinLimit()),
            (std::vector<std::string>{"1", "2", "4", "7", "10"}));
  EXPECT_EQ(in_order.left_out, 7u);
  EXPECT_EQ(in_order.left_out, sorted.left_out);
  EXPECT_EQ(in_order.bytes_left_out, sorted.bytes_left_out);
}

TEST(FindingBounds, AFileMayHoldSixteenTimesItsSizeOrTheLeastWhicheverIsMore) {
  EXPECT_EQ(ReportByteBudget(256 << 10, 1000), 256u << 10);
  EXPECT_EQ(ReportByteBudget(256 << 10, 20322), 16u * 20322);
  EXPECT_EQ(ReportByteBudget(1, UINT64_MAX / 2), UINT64_MAX);  // no overflow
}

TEST(FindingBounds, NumbersAreTheDigitRunsThatStandAlone) {
  const MessageNumbers m = SplitNumbers(
      "file+0x2000: entry 17 ('hipv4-amdgcn-amd-amdhsa--gfx90a') of libc.so.6, 1.5 MB, 4096 bytes");
  EXPECT_EQ(m.numbers, (std::vector<uint64_t>{17, 4096}));
  EXPECT_EQ(m.shape, std::string("file+0x2000: entry ") + '\0' +
                         " ('hipv4-amdgcn-amd-amdhsa--gfx90a') of libc.so.6, 1.5 MB, " + '\0' + " bytes");
  // Past 19 digits a run is part of the words: no number of 64 bits holds it.
  EXPECT_TRUE(SplitNumbers("offset 123456789012345678901").numbers.empty());
}

const Rule kBundleLike{
    .id = "malformed-bundle", .severity = Severity::kError, .title = "", .fix = "", .key_fields = "offset"};
const Rule* const kRules[] = {&kBundleLike};

Finding EntryFinding(int entry, int offset, const std::string& file = "lib.so") {
  Finding f;
  f.check = "malformed-bundle";
  f.file = file;
  f.message = "file+0x0: entry " + std::to_string(entry) + " ('hipv4-amdgcn-amd-amdhsa--gfx90a') is broken";
  f.fields["offset"] = offset;
  f.fields["reason"] = f.message;
  return f;
}

TEST(FindingBounds, FindingsAlikeButForAnIndexFoldIntoOne) {
  FindingSink sink(5000, kRules);
  for (int i = 0; i < 4096; ++i) sink.Add(EntryFinding(i, 0));
  sink.Add(EntryFinding(7, 4096));           // another bundle: another key
  sink.Add(EntryFinding(3, 0, "other.so"));  // another file
  std::vector<Finding> kept = std::move(sink).SortedWithinLimit();
  ASSERT_EQ(kept.size(), 3u);
  ASSERT_TRUE(kept[0].repeated);
  EXPECT_EQ(kept[0].repeated->count, 4096u);
  EXPECT_EQ(kept[0].repeated->numbers, (std::vector<uint64_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(kept[0].message,
            "file+0x0: entry 0 ('hipv4-amdgcn-amd-amdhsa--gfx90a') is broken [4096 alike, differing only in "
            "number 1 of this message: 0, 1, 2, 3, 4, ...]");
  EXPECT_FALSE(kept[1].repeated);
  EXPECT_FALSE(kept[2].repeated);
  EXPECT_EQ(sink.left_out, 0u);
}

// A path a message names is one word: two findings of two files are not alike because the
// files' names differ in a number, and the number of a directory is no index.
TEST(FindingBounds, NumbersInAPathTheMessageNamesAreNoIndex) {
  Finding one = EntryFinding(1, 0), two = EntryFinding(1, 0);
  one.SetMessage("entry 1 is missing from " + HostPath("/t/rocm/1/lib"));
  two.SetMessage("entry 1 is missing from " + HostPath("/t/rocm/2/lib"));
  FindingSink sink(5000, kRules);
  sink.Add(one);
  sink.Add(two);
  std::vector<Finding> kept = std::move(sink).SortedWithinLimit();
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_FALSE(kept[0].repeated);
  EXPECT_EQ(SplitNumbers(one.message, one.message_paths).numbers, (std::vector<uint64_t>{1}));
}

TEST(FindingBounds, AMessageKnowsWhereItNamesPaths) {
  Finding f;
  f.SetMessage("libx.so.1 was found at " + HostPath("/t/lib/libx.so.1") + " but cannot be loaded");
  f.AddToMessage("; it is at " + HostPath("/t/a b/libx.so.1"));
  f.SetHint("replace " + HostPath("/t/lib/libx.so.1"));
  EXPECT_EQ(f.message,
            "libx.so.1 was found at /t/lib/libx.so.1 but cannot be loaded; it is at /t/a b/libx.so.1");
  EXPECT_EQ(f.message_paths, (std::vector<TextPath>{{23, 16}, {71, 16}}));
  EXPECT_EQ(f.hint_paths, (std::vector<TextPath>{{8, 16}}));
  EXPECT_EQ(FillPaths(
                f.message, f.message_paths, [](std::string_view p) { return "<" + std::string(p) + ">"; },
                [](std::string_view w) { return std::string(w); }),
            "libx.so.1 was found at </t/lib/libx.so.1> but cannot be loaded; it is at </t/a b/libx.so.1>");
}

// A message cut to its bound names only the paths, or the start of the path, it keeps.
TEST(FindingBounds, ACutMessageNamesOnlyThePathsItKeeps) {
  Finding f;
  const std::string dir = "/t/" + std::string(kMaxFindingStringBytes, 'd');
  f.SetMessage("at " + HostPath("/t/lib") + " and " + HostPath(dir) + " and " + HostPath("/t/gone"));
  BoundFindingSize(&f);
  ASSERT_EQ(f.message_paths.size(), 2u);
  EXPECT_EQ(f.message_paths[0], (TextPath{3, 6}));
  EXPECT_EQ(f.message_paths[1].offset, 14u);
  EXPECT_EQ(f.message_paths[1].offset + f.message_paths[1].size, f.message.rfind("... ["));
}

TEST(FindingBounds, FindingsDifferingInTwoNumbersOrWithoutRulesStayApart) {
  FindingSink sink(5000, kRules);
  Finding a = EntryFinding(1, 0), b = EntryFinding(2, 0), c = EntryFinding(3, 0);
  c.message += " at 9";  // another shape
  Finding d = a;
  d.message = "file+0x0: entry 5 ('x') is broken after 6";
  Finding e = d;
  e.message = "file+0x0: entry 6 ('x') is broken after 7";  // two numbers differ
  for (const Finding& f : {a, b, c, d, e}) sink.Add(f);
  std::vector<Finding> kept = std::move(sink).SortedWithinLimit();
  ASSERT_EQ(kept.size(), 4u);
  EXPECT_EQ(kept[0].repeated->count, 2u);
  // A key field that is not UTF-8 is compared by its bytes (BadInput's seeded corruption).
  FindingSink bytes(5000, kRules);
  Finding x = EntryFinding(1, 0), y = EntryFinding(2, 0), z = EntryFinding(3, 0);
  x.fields["offset"] = y.fields["offset"] = std::string("\xfe");
  z.fields["offset"] = std::string("\xff");
  for (const Finding& f : {x, y, z}) bytes.Add(f);
  EXPECT_EQ(std::move(bytes).SortedWithinLimit().size(), 2u);
  FindingSink plain(5000);  // a sink without rules folds nothing
  for (int i = 0; i < 10; ++i) plain.Add(EntryFinding(i, 0));
  EXPECT_EQ(std::move(plain).SortedWithinLimit().size(), 10u);
}

}  // namespace
}  // namespace rocm_audit::testing
