// GitLab Code Quality: the fields GitLab reads, relative paths, stable fingerprints.
#include "reports/gitlab_report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/sample_report.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;

TEST(GitlabReport, OneIssuePerCountedFindingWithWhatGitlabReads) {
  Report r = SampleReport();
  r.findings[0].key = "undefined-symbol|lib/libA.so|symbol=f";
  auto j = nlohmann::json::parse(RenderGitlab(r, "/p"));
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0]["check_name"], "undefined-symbol");
  EXPECT_EQ(j[0]["severity"], "critical");
  EXPECT_EQ(j[1]["severity"], "major");
  EXPECT_EQ(j[0]["location"]["path"], "lib/libA.so");
  EXPECT_EQ(j[0]["location"]["lines"]["begin"], 1);
  EXPECT_THAT(j[0]["description"].get<std::string>(), HasSubstr("undefined symbol f"));
  EXPECT_EQ(j[0]["fingerprint"].get<std::string>().size(), 16u);
  EXPECT_NE(j[0]["fingerprint"], j[1]["fingerprint"]);
  // Outside the base: the absolute path. Accepted findings are not issues.
  EXPECT_EQ(nlohmann::json::parse(RenderGitlab(r, "/elsewhere"))[0]["location"]["path"], "/p/lib/libA.so");
  r.findings[0].suppressed = Suppression{"baseline", "present in the baseline", "old.json"};
  EXPECT_EQ(nlohmann::json::parse(RenderGitlab(r, "/p")).size(), 1u);
}

TEST(GitlabReport, TheFingerprintFollowsTheKeyNotTheMachine) {
  Report a = SampleReport(), b = SampleReport();
  a.findings[0].key = b.findings[0].key = "undefined-symbol|lib/libA.so|symbol=f";
  b.findings[0].file = "/ci/checkout/lib/libA.so";
  EXPECT_EQ(nlohmann::json::parse(RenderGitlab(a, "/p"))[0]["fingerprint"],
            nlohmann::json::parse(RenderGitlab(b, "/ci/checkout"))[0]["fingerprint"]);
}

}  // namespace
}  // namespace rocm_audit::testing
