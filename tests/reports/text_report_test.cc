// The text report: findings grouped by file, the fix under each, the summary line.
#include "reports/text_report.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/sample_report.h"

namespace rocm_audit::testing {
namespace {

TEST(TextReport, GroupedByFileWithFixAndSummary) {
  std::string text = RenderText(SampleReport(), TextOptions{});
  EXPECT_NE(text.find("/p/lib/libA.so\n  error[undefined-symbol]: undefined symbol f\n    fix: link libf\n"
                      "  warning[rpath-absolute-outside]"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("1 file audited"), std::string::npos) << text;
  EXPECT_NE(text.find("1 error, 1 warning, 0 notes in 1 file"), std::string::npos) << text;
  EXPECT_EQ(text.find("\033["), std::string::npos);  // no colour unless asked
}

TEST(TextReport, QuietShowsOnlyFailingFindings) {
  TextOptions o;
  o.quiet = true;
  o.min_severity = Severity::kError;
  std::string text = RenderText(SampleReport(), o);
  EXPECT_NE(text.find("undefined-symbol"), std::string::npos);
  EXPECT_EQ(text.find("rpath-absolute-outside"), std::string::npos);
  EXPECT_EQ(text.find("audited"), std::string::npos);
}

TEST(TextReport, TheFirstScreenIsTheSummaryAndTheRootCauses) {
  Report r = SampleReport();
  r.rules[0].cause = "undefined symbol {symbol*} in {files}";
  std::string text = RenderText(r, TextOptions{});
  EXPECT_EQ(text.find("rocm-audit: 1 file audited"), 0u) << text;
  size_t causes = text.find("What to fix, most severe first (2 causes;");
  size_t details = text.find("/p/lib/libA.so\n  error[undefined-symbol]");
  ASSERT_NE(causes, std::string::npos) << text;
  EXPECT_LT(causes, details);
  EXPECT_NE(text.find("  error   [undefined-symbol] undefined symbol f in libA.so\n"), std::string::npos)
      << text;
  // The summary is also the last line.
  EXPECT_EQ(text.rfind("rocm-audit: 1 file audited"), text.rfind('\n', text.size() - 2) + 1) << text;
}

TEST(TextReport, QuietSaysWhatItLeavesOut) {
  TextOptions o;
  o.quiet = true;
  o.min_severity = Severity::kError;
  Report r = SampleReport();
  EXPECT_NE(RenderText(r, o).find("rocm-audit -q: not shown: 1 finding below error, 0 accepted findings"),
            std::string::npos);
  r.findings.pop_back();  // nothing left out: no such line
  EXPECT_EQ(RenderText(r, o).find("not shown"), std::string::npos);
}

TEST(TextReport, ColourWhenAsked) {
  TextOptions o;
  o.color = true;
  EXPECT_NE(RenderText(SampleReport(), o).find("\033[1;31merror"), std::string::npos);
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
  EXPECT_NE(text.find("libdev.so: 3 bundles, CCOB v2 zstd 100 B -> 400 B, CCOB v3 zstd with problems 62 B, "
                      "CCOB with problems 58 B: gfx90a"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("CCOB v0"), std::string::npos) << text;
}

}  // namespace
}  // namespace rocm_audit::testing
