// The demo install tree the build makes (fixtures/make_demo_tree.sh): every defect of the
// field reports it carries must come out, with the fields the JSON contract names.
#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <set>

#include "reports/file_facts_json.h"

#include "tests/support/audit_support.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

const std::string kDemo = ROCM_AUDIT_DEMO_TREE;

class DemoTree : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { report_ = new Report(Audit({kDemo}, "", {}, "/nonexistent/ld.so.conf")); }
  static void TearDownTestSuite() { delete report_; }
  static Report* report_;
};
Report* DemoTree::report_ = nullptr;

TEST_F(DemoTree, MIOpenMissesTheX86InitialisersThatOnlyRockCompilerDefines) {
  auto f = FindingsOf(*report_, "undefined-symbol", kDemo + "/lib/libMIOpen.so.1");
  std::set<std::string> symbols;
  for (const Finding& x : f) {
    symbols.insert(x.fields["symbol"].get<std::string>());
    ASSERT_EQ(x.fields["providers"].size(), 1u);
    EXPECT_EQ(x.fields["providers"][0]["member"], "X86TargetInfo.cpp.o");
  }
  EXPECT_EQ(symbols, (std::set<std::string>{"LLVMInitializeX86TargetInfo", "LLVMInitializeX86Target",
                                            "LLVMInitializeX86TargetMC", "LLVMInitializeX86AsmPrinter",
                                            "LLVMInitializeX86AsmParser"}));
}

// A run that hands each file's facts to a sink (the command line does for JSON, SARIF,
// JUnit and GitLab reports) hands over the facts a run that keeps them keeps, each once,
// and finds the same.
TEST(FileFactsSink, FactsHandedToASinkAreTheFactsTheReportKeeps) {
  AuditRequest o;
  o.paths = {kDemo, std::string(ROCM_AUDIT_CMAKE_TREE) + "/ck-ok"};  // and a CMake package
  o.ld_so_conf = "/nonexistent/ld.so.conf";
  o.jobs = 2;
  const Report kept = AuditWith(o);
  // Takes every file's facts, as the command line's sink does for a JSON report.
  struct Taker : AuditSinks {
    const std::vector<std::string>* paths;
    std::mutex mutex;
    std::map<size_t, FileFacts> got;
    size_t handed = 0;
    bool TakesFileFacts(const ReportInputs& inputs) override {
      EXPECT_EQ(inputs.paths, *paths);
      return true;
    }
    void FileFactsReady(size_t index, FileFacts&& facts) override {
      std::lock_guard lock(mutex);
      ++handed;
      got.emplace(index, std::move(facts));
    }
  } taker;
  taker.paths = &o.paths;
  Report streamed;
  std::string error;
  ASSERT_TRUE(rocm_audit::Audit(o, taker, &streamed, &error)) << error;
  std::map<size_t, FileFacts>& got = taker.got;
  const size_t handed = taker.handed;
  EXPECT_TRUE(streamed.files.empty());
  EXPECT_EQ(streamed.FilesAudited(), kept.files.size());
  EXPECT_EQ(streamed.AuditedByKind(), kept.AuditedByKind());
  ASSERT_EQ(handed, kept.files.size());
  ASSERT_EQ(got.size(), kept.files.size());
  size_t device = 0, closure = 0, cmake = 0;
  for (size_t i = 0; i < kept.files.size(); ++i) {
    const FileFacts& f = kept.files[i];
    EXPECT_EQ(FileFactsToJson(got[i]).dump(), FileFactsToJson(f).dump()) << f.path;
    device += f.device.has_value();
    closure += f.closure.has_value();
    cmake += f.cmake.has_value();
  }
  EXPECT_GT(device, 0u);
  EXPECT_GT(closure, 0u);
  EXPECT_GT(cmake, 0u);
  ASSERT_EQ(streamed.findings.size(), kept.findings.size());
  for (size_t i = 0; i < kept.findings.size(); ++i) {
    EXPECT_EQ(streamed.findings[i].check, kept.findings[i].check) << i;
    EXPECT_EQ(streamed.findings[i].file, kept.findings[i].file) << i;
    EXPECT_EQ(streamed.findings[i].message, kept.findings[i].message) << i;
  }
}

TEST_F(DemoTree, EveryPlantedDefectIsFound) {
  EXPECT_EQ(FindingsOf(*report_, "rpath-build-dir", kDemo + "/lib/librocblas.so.4").size(), 1u);
  EXPECT_EQ(FindingsOf(*report_, "missing-version", kDemo + "/lib/libhipfft.so.0").size(), 1u);
  EXPECT_EQ(FindingsOf(*report_, "unresolved-library", kDemo + "/bin/rocm-demo").size(), 1u);
  EXPECT_EQ(FindingsOf(*report_, "dangling-symlink", kDemo + "/lib/libamdhip64.so").size(), 1u);
  auto mixed = FindingsOf(*report_, "mixed-soname", kDemo + "/lib/libhipsparse.so.1");
  ASSERT_EQ(mixed.size(), 1u);
  EXPECT_EQ(mixed[0].fields["library"], "libamdhip64");
}

TEST_F(DemoTree, CleanLibrariesHaveNoFindings) {
  for (const Finding& f : report_->findings)
    EXPECT_TRUE(f.file != kDemo + "/lib/libamdhip64.so.6" && f.file != kDemo + "/lib/librocfft.so.0")
        << f.message;
}

}  // namespace
}  // namespace rocm_audit::testing
