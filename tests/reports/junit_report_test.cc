// JUnit XML: one test case per file, failing at --fail-on.
#include "reports/junit_report.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/sample_report.h"

namespace rocm_audit::testing {
namespace {

TEST(JunitReport, OneCasePerFileFailingAtFailOn) {
  Report r = SampleReport();
  r.files.push_back({"/p/lib/clean.so", "elf-shared-library", {}});
  std::string xml = RenderJunit(r, Severity::kError, false);
  EXPECT_NE(xml.find("<testsuite name=\"rocm-audit\" tests=\"2\" failures=\"1\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<failure message=\"error[undefined-symbol]: undefined symbol f\">"), std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<system-out>warning[rpath-build-dir]"), std::string::npos) << xml;
  EXPECT_NE(xml.find("name=\"/p/lib/clean.so\">\n    </testcase>"), std::string::npos) << xml;
  std::string lenient = RenderJunit(r, Severity::kError, true);
  EXPECT_NE(lenient.find("failures=\"0\""), std::string::npos);
}

TEST(JunitReport, EscapesXml) {
  Report r = SampleReport();
  r.findings[0].message = "a<b & \"c\"\x01";
  std::string xml = RenderJunit(r, Severity::kError, false);
  EXPECT_NE(xml.find("a&lt;b &amp; &quot;c&quot;?"), std::string::npos) << xml;
}

}  // namespace
}  // namespace rocm_audit::testing
