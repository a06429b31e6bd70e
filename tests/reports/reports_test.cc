// The JSON contract (schema_version 1) and the text report's shape.
#include <gtest/gtest.h>

#include "reports/json_report.h"
#include "reports/junit_report.h"
#include "reports/sarif_report.h"
#include "reports/text_report.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

Report SampleReport() {
  Report r;
  r.inputs.paths = {"/p"};
  FileFacts a;
  a.path = "/p/lib/libA.so";
  a.kind = "elf-shared-library";
  a.elf = ElfFacts{};
  a.elf->machine = "x86-64";
  r.files.push_back(a);
  r.rules = {{"undefined-symbol", Severity::kError, "an undefined symbol", "link it"},
             {"rpath-build-dir", Severity::kWarning, "a build-dir RUNPATH", "drop it"}};
  r.counts["elf"] = 1;
  Finding w{"rpath-build-dir", Severity::kWarning, "/p/lib/libA.so", "RUNPATH entry /build/x", "drop it"};
  w.fields["entry"] = "/build/x";
  Finding e{"undefined-symbol", Severity::kError, "/p/lib/libA.so", "undefined symbol f", "link libf"};
  e.fields["symbol"] = "f";
  e.fields["version"] = nullptr;
  r.findings = {e, w};
  return r;
}

TEST(JsonReport, ContractFields) {
  auto j = nlohmann::json::parse(RenderJson(SampleReport(), Severity::kError, false));
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["tool"]["name"], "rocm-audit");
  EXPECT_TRUE(j["tool"]["version"].is_string());
  EXPECT_EQ(j["inputs"]["fail_on"], "error");
  EXPECT_EQ(j["summary"]["by_severity"]["error"], 1);
  EXPECT_EQ(j["summary"]["by_severity"]["warning"], 1);
  EXPECT_EQ(j["summary"]["by_check"]["undefined-symbol"], 1);
  EXPECT_EQ(j["summary"]["failed"], true);
  ASSERT_EQ(j["findings"].size(), 2u);
  const auto& f = j["findings"][0];
  for (const char* key : {"check", "severity", "file", "message", "hint", "symbol", "version"})
    EXPECT_TRUE(f.contains(key)) << key;
  EXPECT_EQ(f["severity"], "error");
  EXPECT_TRUE(f["version"].is_null());
  EXPECT_EQ(j["files"][0]["path"], "/p/lib/libA.so");
  EXPECT_EQ(j["files"][0]["kind"], "elf-shared-library");
  EXPECT_EQ(j["files"][0]["machine"], "x86-64");
}

TEST(JsonReport, FailedFollowsFailOn) {
  Report r = SampleReport();
  r.findings.erase(r.findings.begin());  // only the warning left
  EXPECT_EQ(nlohmann::json::parse(RenderJson(r, Severity::kError, false))["summary"]["failed"], false);
  EXPECT_EQ(nlohmann::json::parse(RenderJson(r, Severity::kWarning, false))["summary"]["failed"], true);
  EXPECT_EQ(nlohmann::json::parse(RenderJson(r, Severity::kNote, true))["summary"]["failed"], false);
}

TEST(JsonReport, NonUtf8PathsDoNotBreakTheReport) {
  Report r = SampleReport();
  r.findings[0].file = "/p/lib/lib\xff\xfe.so";
  auto j = nlohmann::json::parse(RenderJson(r, Severity::kError, false));
  EXPECT_EQ(j["findings"].size(), 2u);
}

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

TEST(TextReport, ColourWhenAsked) {
  TextOptions o;
  o.color = true;
  EXPECT_NE(RenderText(SampleReport(), o).find("\033[1;31merror"), std::string::npos);
}

}  // namespace
}  // namespace rocm_audit::testing
