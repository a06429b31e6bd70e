// SARIF 2.1.0: one run, rules from the report, one result per finding.
#include "reports/sarif_report.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/sample_report.h"

namespace rocm_audit::testing {
namespace {

TEST(SarifReport, OneRunRulesFromTheCheckTableResultsByRuleId) {
  auto j = nlohmann::json::parse(RenderSarif(SampleReport()));
  EXPECT_EQ(j["version"], "2.1.0");
  ASSERT_EQ(j["runs"].size(), 1u);
  const auto& run = j["runs"][0];
  EXPECT_EQ(run["tool"]["driver"]["name"], "rocm-audit");
  ASSERT_EQ(run["tool"]["driver"]["rules"].size(), 2u);
  EXPECT_EQ(run["tool"]["driver"]["rules"][1]["id"], "rpath-build-dir");
  EXPECT_EQ(run["tool"]["driver"]["rules"][1]["defaultConfiguration"]["level"], "warning");
  ASSERT_EQ(run["results"].size(), 2u);
  EXPECT_EQ(run["results"][0]["ruleId"], "undefined-symbol");
  EXPECT_EQ(run["results"][0]["level"], "error");
  EXPECT_EQ(run["results"][1]["level"], "warning");
  EXPECT_EQ(run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "/p/lib/libA.so");
  EXPECT_EQ(run["results"][0]["properties"]["symbol"], "f");
}

TEST(SarifReport, UrisArePercentEncoded) {
  Report r = SampleReport();
  r.findings[0].file = "/p/lib dir/lib#1.so";
  auto j = nlohmann::json::parse(RenderSarif(r));
  EXPECT_EQ(j["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "/p/lib%20dir/lib%231.so");
}

}  // namespace
}  // namespace rocm_audit::testing
