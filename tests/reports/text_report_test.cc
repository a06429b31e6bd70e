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
                      "  warning[rpath-build-dir]"),
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
  EXPECT_EQ(text.find("rpath-build-dir"), std::string::npos);
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

}  // namespace
}  // namespace rocm_audit::testing
