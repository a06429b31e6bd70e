// The policy between the checks and the reports: selection, severities, waivers, the
// baseline, and what the report then counts.
#include "policy/policy.h"

#include "policy/baseline.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace rocm_audit {
namespace {

using ::testing::AllOf;
using ::testing::Each;
using ::testing::Field;
using ::testing::HasSubstr;

Report TwoFileReport() {
  Report r;
  r.inputs.paths = {"tree"};
  r.rules = {
      {
          .id = "undefined-symbol",
          .severity = Severity::kError,
          .title = "t",
          .fix = "f",
          .key_fields = "symbol version",
      },
      {
          .id = "rpath-absolute-outside",
          .severity = Severity::kWarning,
          .title = "t",
          .fix = "f",
          .key_fields = "tag entry",
      },
      kUnusedWaiverRule,
  };
  auto undefined = [](const std::string& file, const std::string& symbol) {
    Finding f{"undefined-symbol", Severity::kError, file, "undefined symbol " + symbol, "h"};
    f.fields["symbol"] = symbol;
    f.fields["version"] = nullptr;
    return f;
  };
  Finding rpath{"rpath-absolute-outside", Severity::kWarning, "tree/lib/librocblas.so.4", "m", "h"};
  rpath.fields["entry"] = "/opt/x/lib";
  rpath.fields["tag"] = "RUNPATH";
  r.findings = {undefined("tree/lib/libthread_db.so.1", "ps_pglobal_lookup"),
                undefined("tree/lib/libthread_db.so.1", "ps_getpid"),
                undefined("tree/lib/libMIOpen.so.1", "LLVMInitializeX86Target"), rpath};
  return r;
}

TEST(Policy, WaiversMarkFindingsThatThenDoNotCount) {
  Report r = TwoFileReport();
  Policy p;
  std::string error;
  ASSERT_TRUE(
      ParseWaivers("undefined-symbol libthread_db.so ps_* # gdb provides them\n"
                   "rpath-absolute-outside librocblas.so* # an unused one: wrong check below\n"
                   "undefined-symbol libnothing.so # matches nothing\n",
                   "w", r.rules, &p.waivers, &error));
  ApplyPolicy(p, &r);
  ASSERT_TRUE(r.findings[0].suppressed);
  EXPECT_EQ(r.findings[0].suppressed->kind, "waiver");
  EXPECT_EQ(r.findings[0].suppressed->reason, "gdb provides them");
  EXPECT_EQ(r.findings[0].suppressed->source, "w:1");
  EXPECT_TRUE(r.findings[1].suppressed);
  EXPECT_FALSE(r.findings[2].suppressed);
  EXPECT_TRUE(r.findings[3].suppressed);
  EXPECT_EQ(r.Count(Severity::kError), 1u);
  EXPECT_EQ(r.CountSuppressed("waiver"), 3u);
  EXPECT_TRUE(r.HasFindingsAtOrAbove(Severity::kError));
  // The waiver that matched nothing is a note on the waiver file.
  ASSERT_EQ(r.findings.size(), 5u);
  EXPECT_EQ(r.findings[4].check, "unused-waiver");
  EXPECT_EQ(r.findings[4].file, "w");
  EXPECT_EQ(r.findings[4].fields["line"], 3);
  EXPECT_EQ(r.findings[4].severity, Severity::kNote);
}

TEST(Policy, TheBaselineAcceptsKnownFindingsOnly) {
  Report before = TwoFileReport();
  ApplyPolicy({}, &before);
  Policy p;
  for (const Finding& f : before.findings) p.baseline_keys.push_back(f.key);
  p.baseline_file = "old.json";
  Report after = TwoFileReport();
  after.inputs.paths = {"elsewhere/tree"};  // another checkout, same tree
  for (Finding& f : after.findings) f.file = "elsewhere/" + f.file;
  Finding planted = after.findings[2];
  planted.fields["symbol"] = "LLVMInitializeX86TargetMC";
  after.findings.push_back(planted);
  ApplyPolicy(p, &after);
  for (size_t i = 0; i < 4; ++i) {
    ASSERT_TRUE(after.findings[i].suppressed) << after.findings[i].key;
    EXPECT_EQ(after.findings[i].suppressed->kind, "baseline");
  }
  EXPECT_FALSE(after.findings[4].suppressed);
  EXPECT_EQ(after.Count(Severity::kError), 1u);
  EXPECT_EQ(after.CountSuppressed("baseline"), 4u);
}

TEST(Policy, EnableDisableAndSeverity) {
  Report r = TwoFileReport();
  Policy p;
  p.disable = {"rpath-*"};
  p.severity = {{"undefined-symbol", Severity::kWarning}};
  ApplyPolicy(p, &r);
  EXPECT_EQ(r.findings.size(), 3u);
  EXPECT_THAT(r.findings, Each(AllOf(Field(&Finding::check, "undefined-symbol"),
                                     Field(&Finding::severity, Severity::kWarning))));
  EXPECT_EQ(r.disabled, (std::vector<std::string>{"rpath-absolute-outside"}));
  EXPECT_FALSE(r.HasFindingsAtOrAbove(Severity::kError));

  Policy only;
  only.enable = {"rpath-absolute-outside"};
  EXPECT_TRUE(RuleEnabled(only, "rpath-absolute-outside"));
  EXPECT_FALSE(RuleEnabled(only, "undefined-symbol"));
  std::string error;
  EXPECT_TRUE(CheckPolicyNames(only, r.rules, &error));
  only.disable = {"no-such-check"};
  EXPECT_FALSE(CheckPolicyNames(only, r.rules, &error));
  EXPECT_THAT(error, HasSubstr("no-such-check"));
}

// A --baseline file is user input: members of any type are an error message (found by
// fuzzing: nlohmann's value() throws for "schema_version": {...}), never an exception.
TEST(Baseline, MembersOfTheWrongTypeAreAnErrorNotAnException) {
  const Rule rules[] = {
      {
          .id = "undefined-symbol",
          .severity = Severity::kError,
          .title = "t",
          .fix = "f",
          .key_fields = "symbol version",
      },
  };
  for (const char* text :
       {R"({"schema_version": {"error": 4}, "findings": []})", R"({"schema_version": "1", "findings": []})",
        R"({"schema_version": 1, "findings": {}})",
        R"({"schema_version": 1, "inputs": [], "findings": [{"check": 7}]})",
        R"({"schema_version": 1, "findings": [{"check": "undefined-symbol", "file": []}]})"}) {
    std::vector<std::string> keys;
    std::string error;
    EXPECT_FALSE(ReadBaselineKeys(text, rules, &keys, &error)) << text;
    EXPECT_FALSE(error.empty()) << text;
  }
  std::vector<std::string> keys;
  std::string error;
  EXPECT_TRUE(
      ReadBaselineKeys(R"({"schema_version": 1, "findings": [{"check": "undefined-symbol", "file": "a", )"
                       R"("symbol": "s", "version": null}]})",
                       rules, &keys, &error))
      << error;
  EXPECT_EQ(keys.size(), 1u);
}

// Issue 47: a field nested 30,000 deep overflowed the stack of the recursive copy and walk
// of the parsed value; the parse now refuses it before the value is built.
TEST(Baseline, AFieldNestedDeeperThanAReportIsAnErrorNotACrash) {
  const std::string deep = std::string(30'000, '[') + std::string(30'000, ']');
  std::vector<std::string> keys;
  std::string error;
  EXPECT_FALSE(ReadBaselineKeys(
      R"({"schema_version": 1, "findings": [{"check": "x", "symbol": )" + deep + "}]}", {}, &keys, &error));
  EXPECT_EQ(error, "not a rocm-audit JSON report: nests deeper than 64 levels of arrays and objects");
  EXPECT_TRUE(keys.empty());
}

// A report writes names that are not UTF-8 as lossless text (audit/model/byte_text.h); its
// keys are read back as the bytes they stand for, so lib\xfe.so's key is not lib\xff.so's.
TEST(Baseline, KeysAreReadBackAsTheBytesTheyName) {
  std::vector<std::string> keys;
  std::string error;
  ASSERT_TRUE(ReadBaselineKeys(
      R"({"schema_version": 1, "inputs": {"paths": ["t\\xfe"]}, "findings": [)"
      R"({"check": "malformed-file", "file": "lib\\xfe.so", "key": "malformed-file|lib/lib\\xfe.so"},)"
      R"({"check": "malformed-file", "file": "lib/lib\\\\xff.so", "key": "malformed-file|lib/lib\\\\xff.so"},)"
      R"({"check": "malformed-file", "file": "t\\xfe/lib/x\\xff.so"}]})",
      {}, &keys, &error))
      << error;
  EXPECT_EQ(keys, (std::vector<std::string>{"malformed-file|lib/lib\xfe.so", "malformed-file|lib/lib\\xff.so",
                                            "malformed-file|lib/x\xff.so"}));
}

}  // namespace
}  // namespace rocm_audit
