// The text report: findings grouped by file, the fix under each, the summary line.
#include "reports/text_report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/sample_report.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

TEST(TextReport, GroupedByFileWithFixAndSummary) {
  std::string text = RenderText(SampleReport(), TextOptions{});
  EXPECT_THAT(text,
              HasSubstr("/p/lib/libA.so\n  error[undefined-symbol]: undefined symbol f\n    fix: link libf\n"
                        "  warning[rpath-absolute-outside]"));
  EXPECT_EQ(Lines(text).back(),
            "rocm-audit: 1 file audited (walked: 1 elf); 1 error, 1 warning, 0 notes in 1 file");
  EXPECT_THAT(text, Not(HasSubstr("\033[")));  // no colour unless asked
}

// A package's line under "cmake packages" is OK only when find_package() would load it: a
// config that fails to evaluate names the first of its errors, one with only a warning or a
// waived error is still OK.
TEST(TextReport, ACMakePackageThatFailsIsNotOK) {
  Report r;
  for (const char* name : {"Good", "Sock", "Warned"}) {
    FileFacts facts;
    facts.path = std::string("/p/lib/cmake/") + name + "/" + name + "Config.cmake";
    facts.cmake.emplace().package = name;
    r.files.push_back(std::move(facts));
  }
  auto add = [&](const std::string& package, Severity severity, const std::string& check, bool suppressed) {
    Finding f;
    f.file = "/p/lib/cmake/" + package + "/" + package + "Config.cmake";
    f.severity = severity;
    f.check = check;
    if (suppressed) f.suppressed = Suppression{"waiver", "accepted", "waivers.toml:1"};
    f.message = check;
    r.findings.push_back(f);
  };
  add("Sock", Severity::kError, "cmake-config-error", false);
  add("Sock", Severity::kError, "cmake-missing-target", false);
  add("Warned", Severity::kWarning, "cmake-absolute-path", false);
  add("Warned", Severity::kError, "cmake-config-error", true);
  const std::string text = RenderText(r, TextOptions{});
  EXPECT_THAT(text, HasSubstr("cmake packages:\n  Good: 0 targets, 0 dependencies, OK\n"
                              "  Sock: 0 targets, 0 dependencies, fails: cmake-config-error\n"
                              "  Warned: 0 targets, 0 dependencies, OK\n"));
}

// Most urgent first: a file whose worst finding is an error before one whose worst is a
// warning or a note, whatever the walk order; within a file, errors before warnings before
// notes, equal severities in the checks' order.
TEST(TextReport, FilesWithErrorsFirstAndFindingsBySeverity) {
  Report r;
  auto add = [&](const std::string& file, Severity severity, const std::string& check) {
    Finding f;
    f.file = file;
    f.severity = severity;
    f.check = check;
    f.message = check + " in " + file;
    r.findings.push_back(f);
  };
  add("/p/a-note-only", Severity::kNote, "rpath-missing-dir");
  add("/p/b-warning", Severity::kWarning, "dangling-symlink");
  add("/p/c-mixed", Severity::kNote, "link-outside-tree");
  add("/p/c-mixed", Severity::kWarning, "rpath-absolute-outside");
  add("/p/c-mixed", Severity::kError, "undefined-symbol");
  add("/p/c-mixed", Severity::kError, "missing-version");
  add("/p/d-error", Severity::kError, "unresolved-library");
  std::vector<std::string> order;
  for (const std::string& line : Lines(RenderText(r, TextOptions{})))
    if (line.starts_with("/p/") || line.starts_with("  error[") || line.starts_with("  warning[") ||
        line.starts_with("  note["))
      order.push_back(line.starts_with("/p/") ? line : line.substr(0, line.find(']') + 1));
  EXPECT_THAT(order, ::testing::ElementsAre(
                         "/p/c-mixed", "  error[undefined-symbol]", "  error[missing-version]",
                         "  warning[rpath-absolute-outside]", "  note[link-outside-tree]", "/p/d-error",
                         "  error[unresolved-library]", "/p/b-warning", "  warning[dangling-symlink]",
                         "/p/a-note-only", "  note[rpath-missing-dir]"));
}

TEST(TextReport, QuietShowsOnlyFailingFindings) {
  TextOptions o;
  o.quiet = true;
  o.min_severity = Severity::kError;
  std::string text = RenderText(SampleReport(), o);
  EXPECT_THAT(text, HasSubstr("undefined-symbol"));
  EXPECT_THAT(text, Not(HasSubstr("rpath-absolute-outside")));
  EXPECT_THAT(text, Not(HasSubstr("audited")));
}

TEST(TextReport, TheFirstScreenIsTheSummaryAndTheRootCauses) {
  Report r = SampleReport();
  r.rules[0].cause = "undefined symbol {symbol*} in {files}";
  std::string text = RenderText(r, TextOptions{});
  const std::vector<std::string> lines = Lines(text);
  EXPECT_THAT(lines.front(), StartsWith("rocm-audit: 1 file audited"));
  size_t causes = text.find("What to fix, most severe first (2 causes;");
  size_t details = text.find("/p/lib/libA.so\n  error[undefined-symbol]");
  ASSERT_NE(causes, std::string::npos) << text;
  EXPECT_LT(causes, details);
  EXPECT_THAT(lines, Contains("  error   [undefined-symbol] undefined symbol f in libA.so"));
  EXPECT_EQ(lines.back(), lines.front());  // the summary is also the last line
}

TEST(TextReport, QuietSaysWhatItLeavesOut) {
  TextOptions o;
  o.quiet = true;
  o.min_severity = Severity::kError;
  Report r = SampleReport();
  EXPECT_EQ(Lines(RenderText(r, o)).back(),
            "rocm-audit -q: not shown: 1 finding below error, 0 accepted findings, the root causes, the "
            "inventory and the summary");
  r.findings.pop_back();  // nothing left out: no such line
  EXPECT_THAT(RenderText(r, o), Not(HasSubstr("not shown")));
}

TEST(TextReport, ColourWhenAsked) {
  TextOptions o;
  o.color = true;
  EXPECT_THAT(RenderText(SampleReport(), o), HasSubstr("\033[1;31merror"));
}

// The device-code line sums bundles by format. One with a problem is counted apart, at its
// stored size: a CCOB refused for claiming 1 TB must not read as 1 TB of code, nor one whose
// header could not be read as "CCOB v0".
TEST(TextReport, DeviceCodeLineCountsBundlesWithProblemsApart) {
  Report r = SampleReport();
  FileFacts f{"/p/lib/libdev.so", "elf-shared-library", {}};
  BundleFacts good{.format = "ccob", .ccob_version = 2, .compression = "zstd"};
  good.compressed_size = 100;
  good.uncompressed_size = 400;
  BundleFacts refused = good;
  refused.ccob_version = 3;
  refused.compressed_size = 62;
  refused.uncompressed_size = uint64_t(1) << 40;
  refused.valid = false;
  BundleFacts unreadable{.format = "ccob"};
  unreadable.compressed_size = 58;
  unreadable.valid = false;
  f.device = DeviceFacts{{good, refused, unreadable}, {"gfx90a"}, 0, {}};
  r.files.push_back(f);
  const std::string text = RenderText(r, TextOptions{});
  EXPECT_THAT(
      Lines(text),
      Contains("  /p/lib/libdev.so: 3 bundles, CCOB v2 zstd 100 B -> 400 B, CCOB v3 zstd with problems 62 B, "
               "CCOB with problems 58 B: gfx90a"));
  EXPECT_THAT(text, Not(HasSubstr("CCOB v0")));
}

}  // namespace
}  // namespace rocm_audit::testing
