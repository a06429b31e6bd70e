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
  EXPECT_EQ(run["tool"]["driver"]["rules"][1]["id"], "rpath-absolute-outside");
  EXPECT_EQ(run["tool"]["driver"]["rules"][1]["defaultConfiguration"]["level"], "warning");
  ASSERT_EQ(run["results"].size(), 2u);
  EXPECT_EQ(run["results"][0]["ruleId"], "undefined-symbol");
  EXPECT_EQ(run["results"][0]["level"], "error");
  EXPECT_EQ(run["results"][1]["level"], "warning");
  // Outside the base directory (the working directory): an absolute file URI.
  EXPECT_EQ(run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "file:///p/lib/libA.so");
  EXPECT_EQ(run["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"], 1);
  EXPECT_EQ(run["results"][0]["properties"]["symbol"], "f");
}

TEST(SarifReport, UrisAreRelativeToTheBaseNamedInOriginalUriBaseIds) {
  auto j = nlohmann::json::parse(RenderSarif(SampleReport(), {"/p", 1}));
  const auto& run = j["runs"][0];
  EXPECT_EQ(run["originalUriBaseIds"]["SRCROOT"]["uri"], "file:///p/");
  const auto& location = run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
  EXPECT_EQ(location["uri"], "lib/libA.so");
  EXPECT_EQ(location["uriBaseId"], "SRCROOT");
  EXPECT_EQ(run["invocations"][0]["exitCode"], 1);
}

TEST(SarifReport, RulesCarryWhatGithubReadsAndResultsAStableFingerprint) {
  Report r = SampleReport();
  r.findings[0].key = "undefined-symbol|lib/libA.so|symbol=f";
  auto j = nlohmann::json::parse(RenderSarif(r, {"/p", 1}));
  for (const auto& rule : j["runs"][0]["tool"]["driver"]["rules"])
    for (const char* field : {"shortDescription", "fullDescription", "help"})
      EXPECT_FALSE(rule[field]["text"].get<std::string>().empty()) << field;
  const auto& result = j["runs"][0]["results"][0];
  std::string fingerprint = result["partialFingerprints"]["primaryLocationLineHash"];
  EXPECT_EQ(fingerprint.size(), 18u);  // 16 hex digits and ":1"
  // The same key elsewhere gives the same fingerprint; another key another.
  Report moved = r;
  moved.findings[0].file = "/elsewhere/lib/libA.so";
  auto k = nlohmann::json::parse(RenderSarif(moved, {"/elsewhere", 1}));
  EXPECT_EQ(k["runs"][0]["results"][0]["partialFingerprints"]["primaryLocationLineHash"], fingerprint);
  EXPECT_NE(k["runs"][0]["results"][1]["partialFingerprints"]["primaryLocationLineHash"], fingerprint);
}

TEST(SarifReport, UrisArePercentEncoded) {
  Report r = SampleReport();
  r.findings[0].file = "/p/lib dir/lib#1.so";
  auto j = nlohmann::json::parse(RenderSarif(r));
  EXPECT_EQ(j["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "file:///p/lib%20dir/lib%231.so");
}

}  // namespace
}  // namespace rocm_audit::testing
