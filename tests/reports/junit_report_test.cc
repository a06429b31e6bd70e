// JUnit XML: a suite per check, a case per file and check, failing at --fail-on.
#include "reports/junit_report.h"

#include <gtest/gtest.h>

#include "tests/support/sample_report.h"

namespace rocm_audit::testing {
namespace {

TEST(JunitReport, ASuitePerCheckACasePerFileFailingAtFailOn) {
  Report r = SampleReport();
  r.files.push_back({"/p/lib/clean.so", "elf-shared-library", {}});
  std::string xml = RenderJunit(r, Severity::kError, false);
  EXPECT_NE(xml.find("<testsuites name=\"rocm-audit\" tests=\"2\" failures=\"1\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<testsuite name=\"undefined-symbol\" tests=\"1\" failures=\"1\""), std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<testcase classname=\"rocm-audit.undefined-symbol\" name=\"/p/lib/libA.so\">\n"
                     "      <failure message=\"error[undefined-symbol]: undefined symbol f\""),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<testsuite name=\"rpath-absolute-outside\" tests=\"1\" failures=\"0\""),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<system-out>warning[rpath-absolute-outside]"), std::string::npos) << xml;
  std::string lenient = RenderJunit(r, Severity::kError, true);
  EXPECT_NE(lenient.find("failures=\"0\""), std::string::npos);
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
  EXPECT_NE(
      xml.find("<testcase classname=\"rocm-audit.mixed-soname\" name=\"no findings in 1 audited files\"/>"),
      std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<skipped>accepted (waiver: gdb provides it): error[undefined-symbol]"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("failures=\"0\""), std::string::npos) << xml;
  r.disabled = {"mixed-soname"};
  EXPECT_EQ(RenderJunit(r, Severity::kError, false).find("mixed-soname"), std::string::npos);
}

TEST(JunitReport, EscapesXml) {
  Report r = SampleReport();
  r.findings[0].message = "a<b & \"c\"\x01";
  std::string xml = RenderJunit(r, Severity::kError, false);
  EXPECT_NE(xml.find("a&lt;b &amp; &quot;c&quot;?"), std::string::npos) << xml;
}

}  // namespace
}  // namespace rocm_audit::testing
