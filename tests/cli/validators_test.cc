// Every machine-readable format, produced from the fixture trees the way users run the
// tool, put through the reference validators: Microsoft's SARIF validator with GitHub's
// rules and the SARIF 2.1.0 schema, xmllint with the Jenkins JUnit XSD, and JSON schemas
// (the report's own, GitLab Code Quality's) with python3-jsonschema; the HTML page with HTML
// Tidy.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

const std::string kOptions = " --no-progress --ld-so-conf /nonexistent --fail-on none ";
const std::string kValidators = ROCM_AUDIT_VALIDATORS_DIR;
const std::string kSource = ROCM_AUDIT_SOURCE_DIR;

struct AuditRun {
  const char* name;
  std::string args;
  const char* command = "";  ///< "diff": `rocm-audit diff` OLD NEW
};

// Trees and options that exercise every kind of finding and file fact the fixtures have.
std::vector<AuditRun> Runs(const TempDir& t) {
  WriteAll(t / "waivers",
           "undefined-symbol libMIOpen.so LLVMInitializeX86* # linked by the consumer\n"
           "rpath-* * # a stale waiver for the unused-waiver note\n"
           "undefined-symbol libnothing.so # matches nothing\n");
  return {
      {"demo", std::string(ROCM_AUDIT_DEMO_TREE)},
      {"demo-policy", "--suppress " + t / "waivers --severity stack-arch-gap=note " + ROCM_AUDIT_DEMO_TREE},
      {"gpu",
       std::string("--require-arch gfx906,gfx90a,gfx1030,gfx1100 --verify-hash ") + ROCM_AUDIT_GPU_TREE},
      {"cmake", std::string(ROCM_AUDIT_CMAKE_TREE)},
      {"one-file", std::string(ROCM_AUDIT_DEMO_TREE) + "/lib/libMIOpen.so.1"},
      // Every comparison rule, the sides named (fixtures/make_diff_pairs.sh).
      {"diff", std::string(ROCM_AUDIT_DIFF_PAIRS) + "/diff/old " + ROCM_AUDIT_DIFF_PAIRS + "/diff/new",
       "diff"}};
}

// Fails the test, with npm's reason, when the build could not fetch the validators.
class Validators : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(ReadAll(kValidators + "/FETCH-FAILED"), "");
    ASSERT_FALSE(ReadAll(kValidators + "/junit-xsd/jenkins-junit.xsd").empty()) << "validators missing";
  }
};

std::string Produce(const TempDir& t, const AuditRun& run, const char* format) {
  std::string out = t / (std::string(run.name) + "." + format);
  EXPECT_EQ(RunCommand(std::string(ROCM_AUDIT_BINARY) + " " + run.command + kOptions + "--format " + format +
                       " -o " + out + " " + run.args),
            0)
      << run.name;
  return out;
}

void ExpectJsonValid(const std::string& schema, const std::string& file) {
  std::string said;
  EXPECT_EQ(RunCommand(std::string(ROCM_AUDIT_DEBIAN_PYTHON3) + " " + kSource +
                           "/tests/validators/validate_json.py " + schema + " " + file + " 2>&1",
                       &said),
            0)
      << said;
}

TEST_F(Validators, SarifPassesMicrosoftsValidatorWithGithubRulesAndTheSchema) {
  TempDir t;
  for (const AuditRun& run : Runs(t)) {
    std::string sarif = Produce(t, run, "sarif"), verdict = sarif + ".validation.sarif";
    // The multitool exits 0 even when it finds errors: its own SARIF output is the verdict.
    std::string said;
    ASSERT_EQ(RunCommand(kValidators + "/sarif-multitool/Sarif.Multitool validate " + sarif + " -o " +
                             verdict + " --rule-kind 'Sarif;Gh' 2>&1",
                         &said),
              0)
        << said;
    auto validation = nlohmann::json::parse(ReadAll(verdict));
    const auto& results = validation["runs"][0]["results"];
    size_t errors = 0;
    for (const auto& r : results)
      if (r.value("level", "warning") == "error") {
        ++errors;
        ADD_FAILURE() << run.name << ": " << r["ruleId"] << " " << r["message"].dump();
      }
    EXPECT_EQ(errors, 0u) << run.name;
    ExpectJsonValid(kValidators + "/sarif-multitool/sarif-2.1.0.json", sarif);
  }
}

TEST_F(Validators, JunitPassesTheJenkinsXsd) {
  TempDir t;
  for (const AuditRun& run : Runs(t)) {
    std::string said;
    EXPECT_EQ(RunCommand(std::string(ROCM_AUDIT_XMLLINT) + " --noout --schema " + kValidators +
                             "/junit-xsd/jenkins-junit.xsd " + Produce(t, run, "junit") + " 2>&1",
                         &said),
              0)
        << run.name << ": " << said;
  }
}

TEST_F(Validators, JsonReportsMatchTheSchema) {
  TempDir t;
  for (const AuditRun& run : Runs(t))
    ExpectJsonValid(kSource + "/docs/report.schema.json", Produce(t, run, "json"));
  // A baseline run marks every finding; a schema that accepts anything is worthless.
  std::string base = Produce(t, Runs(t)[0], "json");
  AuditRun baselined{"baselined", "--baseline " + base + " " + ROCM_AUDIT_DEMO_TREE};
  ExpectJsonValid(kSource + "/docs/report.schema.json", Produce(t, baselined, "json"));
  WriteAll(t / "bad.json",
           "{\"schema_version\": 1, \"tool\": {}, \"findings\": [{\"severity\": \"fatal\"}]}");
  EXPECT_NE(RunCommand(std::string(ROCM_AUDIT_DEBIAN_PYTHON3) + " " + kSource +
                       "/tests/validators/validate_json.py " + kSource + "/docs/report.schema.json " +
                       t / "bad.json >/dev/null"),
            0);
}

// The schema's list of checks is the tool's: a new rule cannot ship undocumented.
TEST_F(Validators, SchemaNamesEveryCheck) {
  auto schema = nlohmann::json::parse(ReadAll(kSource + "/docs/report.schema.json"));
  std::string listed;
  ASSERT_EQ(RunCommand(std::string(ROCM_AUDIT_BINARY) + " --list-checks --format json", &listed), 0);
  std::vector<std::string> ids;
  auto list = nlohmann::json::parse(listed);
  for (const auto& c : list["checks"]) ids.push_back(c["id"]);
  EXPECT_EQ(schema["$defs"]["ruleId"]["enum"].get<std::vector<std::string>>(), ids);
  // A finding's key starts with its check: the key's pattern lists them all too.
  const std::string key = schema["$defs"]["finding"]["properties"]["key"]["pattern"];
  std::string alternatives;
  for (const std::string& id : ids) alternatives += (alternatives.empty() ? "^(" : "|") + id;
  EXPECT_EQ(key, alternatives + ")\\|");
}

// HTML Tidy (HTML5): neither an error nor a warning in any page (exit 1 is warnings, 2 errors).
TEST_F(Validators, HtmlPassesTidyWithoutAWarning) {
  TempDir t;
  for (const AuditRun& run : Runs(t)) {
    std::string said;
    EXPECT_EQ(RunCommand(std::string(ROCM_AUDIT_TIDY) + " -e -q " + Produce(t, run, "html") + " 2>&1", &said),
              0)
        << run.name << ": " << said;
  }
  // Tidy is not blind: a misnested page fails.
  WriteAll(t / "bad.html",
           "<!DOCTYPE html><html><head><title>x</title></head><body><p><b>x</p></b></body></html>\n");
  EXPECT_NE(RunCommand(std::string(ROCM_AUDIT_TIDY) + " -e -q " + t / "bad.html >/dev/null 2>&1"), 0);
}

TEST_F(Validators, GitlabCodeQualityHasEveryRequiredField) {
  TempDir t;
  for (const AuditRun& run : Runs(t))
    ExpectJsonValid(kSource + "/tests/validators/gitlab-codequality.schema.json", Produce(t, run, "gitlab"));
}

}  // namespace
}  // namespace rocm_audit::testing
