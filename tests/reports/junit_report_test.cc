// JUnit XML: a suite per check, a case per file and check, failing at --fail-on.
#include "reports/junit_report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/sample_report.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(JunitReport, ASuitePerCheckACasePerFileFailingAtFailOn) {
  Report r = SampleReport();
  r.files.push_back({"/p/lib/clean.so", "elf-shared-library", {}});
  std::string xml = RenderJunit(r, Severity::kError, false);
  EXPECT_THAT(xml, HasSubstr("<testsuites name=\"rocm-audit\" tests=\"2\" failures=\"1\""));
  EXPECT_THAT(xml, HasSubstr("<testsuite name=\"undefined-symbol\" tests=\"1\" failures=\"1\""));
  EXPECT_THAT(xml, HasSubstr("<testcase classname=\"rocm-audit.undefined-symbol\" name=\"/p/lib/libA.so\">\n"
                             "      <failure message=\"error[undefined-symbol]: undefined symbol f\""));
  EXPECT_THAT(xml, HasSubstr("<testsuite name=\"rpath-absolute-outside\" tests=\"1\" failures=\"0\""));
  EXPECT_THAT(xml, HasSubstr("<system-out>warning[rpath-absolute-outside]"));
  std::string lenient = RenderJunit(r, Severity::kError, true);
  EXPECT_THAT(lenient, HasSubstr("failures=\"0\""));
}

TEST(JunitReport, ChecksWithoutFindingsPassAndAcceptedFindingsAreSkipped) {
  Report r = SampleReport();
  r.rules.push_back({
      .id = "mixed-soname",
      .severity = Severity::kError,
      .title = "t",
      .fix = "f",
  });
  r.findings[0].suppressed = Suppression{"waiver", "gdb provides it", "w:1"};
  std::string xml = RenderJunit(r, Severity::kError, false);
  EXPECT_THAT(
      xml,
      HasSubstr("<testcase classname=\"rocm-audit.mixed-soname\" name=\"no findings in 1 audited files\"/>"));
  EXPECT_THAT(xml, HasSubstr("<skipped>accepted (waiver: gdb provides it): error[undefined-symbol]"));
  EXPECT_THAT(xml, HasSubstr("failures=\"0\""));
  r.disabled = {"mixed-soname"};
  EXPECT_THAT(RenderJunit(r, Severity::kError, false), Not(HasSubstr("mixed-soname")));
}

TEST(JunitReport, EscapesXml) {
  Report r = SampleReport();
  r.findings[0].message = "a<b & \"c\"\x01";
  std::string xml = RenderJunit(r, Severity::kError, false);
  // A control character XML forbids, even escaped, is shown as the text report shows it.
  EXPECT_THAT(xml, HasSubstr("a&lt;b &amp; &quot;c&quot;\\x01"));
}

}  // namespace
}  // namespace rocm_audit::testing
