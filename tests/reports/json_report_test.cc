// The JSON report: schema_version 1 and its contract fields.
#include "reports/json_report.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

#include "tests/support/sample_report.h"

namespace rocm_audit::testing {
namespace {

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

TEST(JsonReport, FilesListsAllOnlyThoseWithFindingsOrNone) {
  Report r = SampleReport();
  r.files.push_back({"/p/lib/clean.so", "elf-shared-library", {}});
  auto all = nlohmann::json::parse(RenderJson(r, Severity::kError, false));
  auto with_findings = nlohmann::json::parse(RenderJson(r, Severity::kError, false, JsonFiles::kFindings));
  auto none = nlohmann::json::parse(RenderJson(r, Severity::kError, false, JsonFiles::kNone));
  ASSERT_EQ(all["files"].size(), 2u);
  EXPECT_EQ(all["files"][0]["path"], "/p/lib/libA.so");
  EXPECT_EQ(all["files"][1]["path"], "/p/lib/clean.so");
  ASSERT_EQ(with_findings["files"].size(), 1u);
  EXPECT_EQ(with_findings["files"][0]["path"], "/p/lib/libA.so");
  EXPECT_TRUE(none["files"].is_array());
  EXPECT_TRUE(none["files"].empty());
  EXPECT_EQ(none["summary"]["files_audited"], 2);
}

TEST(JsonReport, NonUtf8PathsDoNotBreakTheReport) {
  Report r = SampleReport();
  r.findings[0].file = "/p/lib/lib\xff\xfe.so";
  auto j = nlohmann::json::parse(RenderJson(r, Severity::kError, false));
  ASSERT_EQ(j["findings"].size(), 2u);
  // Each byte as \xNN (audit/model/byte_text.h), so that lib\xfe.so and lib\xff.so differ.
  EXPECT_EQ(j["findings"][0]["file"], "/p/lib/lib\\xff\\xfe.so");
}

// files[] is written a batch of files at a time; the text must be what dumping the whole
// document at once gives, across batch boundaries and in the report's order.
TEST(JsonReport, FilesWrittenInBatchesAreTheWholeDocumentsDump) {
  Report r = SampleReport();
  AddPlainLibraries(&r, 700);
  const std::string text = RenderJson(r, Severity::kError, false);
  const auto j = nlohmann::ordered_json::parse(text);
  ASSERT_EQ(j["files"].size(), r.files.size());
  for (size_t i = 0; i < r.files.size(); ++i) EXPECT_EQ(j["files"][i]["path"], r.files[i].path) << i;
  EXPECT_EQ(text, j.dump(2) + "\n");
  std::ostringstream streamed;
  EXPECT_TRUE(WriteJson(r, Severity::kError, false, JsonFiles::kAll, streamed));
  EXPECT_EQ(streamed.str(), text);
}

}  // namespace
}  // namespace rocm_audit::testing
