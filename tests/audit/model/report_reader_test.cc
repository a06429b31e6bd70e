// The JSON report read back (audit/model/report_reader.h): depth bounded before a value is
// built, every name decoded to its bytes, and what is not a report refused with a reason.
#include "audit/model/report_reader.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace rocm_audit::testing {
namespace {

using Json = nlohmann::json;

std::string Nested(size_t depth, const std::string& inner = "1") {
  return std::string(depth, '[') + inner + std::string(depth, ']');
}

TEST(ParseBoundedJson, TheLimitCountsArraysAndObjectsAndIsInclusive) {
  Json value;
  std::string error;
  EXPECT_TRUE(ParseBoundedJson(Nested(64), 64, &value, &error)) << error;
  EXPECT_FALSE(ParseBoundedJson(Nested(65), 64, &value, &error));
  EXPECT_EQ(error, "nests deeper than 64 levels of arrays and objects");
  EXPECT_TRUE(ParseBoundedJson(R"({"a": {"b": [1]}})", 3, &value, &error)) << error;
  EXPECT_FALSE(ParseBoundedJson(R"({"a": {"b": [{}]}})", 3, &value, &error));
  EXPECT_TRUE(ParseBoundedJson("\"scalar\"", 0, &value, &error));
  EXPECT_FALSE(ParseBoundedJson("{", 8, &value, &error));
  EXPECT_EQ(error.rfind("not JSON: ", 0), 0u) << error;
}

// The parse stops where the limit is passed: a nest of millions costs what its first 65
// levels do, and never the stack (a baseline nested 30,000 deep overflowed it).
TEST(ParseBoundedJson, ADeepNestStopsAtTheLimitWithoutRecursion) {
  const std::string deep =
      "{\"schema_version\": 1, \"findings\": [{\"check\": \"x\", \"symbol\": " + Nested(5'000'000) + "}]}";
  Json value;
  std::string error;
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(ReadJsonReport(deep, &value, &error));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  EXPECT_EQ(error, "not a rocm-audit JSON report: nests deeper than 64 levels of arrays and objects");
}

TEST(ReadJsonReport, NamesAreDecodedToTheirBytesMemberNamesToo) {
  Json report;
  std::string error;
  ASSERT_TRUE(ReadJsonReport(R"({"schema_version": 1, "tool": {"name": "rocm-audit"}, )"
                             R"("files": [{"path": "lib\\xfe.so", "by": {"lib\\xff.so": ["a\\\\xfe"]}}]})",
                             &report, &error))
      << error;
  EXPECT_TRUE(WrittenByRocmAudit(report));
  const Json& file = report["files"][0];
  EXPECT_EQ(file["path"], "lib\xfe.so");
  ASSERT_TRUE(file["by"].contains("lib\xff.so"));
  EXPECT_EQ(file["by"]["lib\xff.so"][0], "a\\xfe");  // "\\" is a backslash, then the text "xfe"
}

TEST(ReadJsonReport, OnlyAnObjectOfSchemaVersionOneIsAReport) {
  Json report;
  std::string error;
  for (const char* text : {"[]", "1", R"({"schema_version": "1"})", R"({"schema_version": 2})", "{}"}) {
    EXPECT_FALSE(ReadJsonReport(text, &report, &error)) << text;
    EXPECT_EQ(error, "not a rocm-audit JSON report (schema_version 1, --format json)") << text;
  }
  ASSERT_TRUE(ReadJsonReport(R"({"schema_version": 1, "tool": {"name": "other"}})", &report, &error));
  EXPECT_FALSE(WrittenByRocmAudit(report));
}

}  // namespace
}  // namespace rocm_audit::testing
