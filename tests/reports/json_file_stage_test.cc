// files[] rendered while the audit runs (JsonFileStage): whatever order the files' facts
// come in, and wherever their text waits, the report is the one a kept files[] gives.
#include "reports/json_file_stage.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/resource.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <random>
#include <sstream>
#include <thread>

#include "reports/file_facts_json.h"
#include "reports/json_element.h"
#include "reports/json_report.h"
#include "tests/support/sample_report.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

// The golden report's files (device code, closures, a CMake package) and many plain ones.
Report ManyFiles() {
  Report r = GoldenReport();
  AddPlainLibraries(&r, 600);
  return r;
}

std::string Kept(const Report& r) {
  std::ostringstream out;
  EXPECT_TRUE(WriteJson(r, Severity::kError, false, JsonFiles::kAll, out));
  return out.str();
}

// The report a run that streamed `r`'s files into `stage` writes: no file kept, each counted.
std::string Staged(Report r, JsonFileStage& stage, unsigned threads) {
  std::vector<size_t> order(r.files.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937(7));
  std::vector<std::thread> workers;
  for (unsigned t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      for (size_t k = t; k < order.size(); k += threads) stage.Add(order[k], r.files[order[k]]);
    });
  for (std::thread& w : workers) w.join();
  for (const FileFacts& f : r.files) ++r.streamed_by_kind[f.kind];
  r.files.clear();
  std::ostringstream out;
  EXPECT_TRUE(WriteJson(r, Severity::kError, false, JsonFiles::kAll, out, &stage));
  return out.str();
}

TEST(JsonFileStage, FilesComingInAnyOrderWriteTheKeptReport) {
  const Report r = ManyFiles();
  const std::string kept = Kept(r);
  TempDir spill(DiskDir());
  JsonFileStage on_disk({spill.path()});
  EXPECT_TRUE(on_disk.spilled());
  EXPECT_EQ(Staged(r, on_disk, 3), kept);
  EXPECT_TRUE(std::filesystem::is_empty(spill.path())) << "the spill file has a name";
  JsonFileStage in_memory({});
  EXPECT_FALSE(in_memory.spilled());
  EXPECT_EQ(Staged(r, in_memory, 2), kept);
  EXPECT_EQ(nlohmann::json::parse(kept)["summary"]["files_audited"], r.files.size());
}

// A write to the spill file that fails (a full disk; here, past a file size limit) keeps
// that element and the later ones in memory; the report is the same.
TEST(JsonFileStage, ElementsAFullSpillFileCannotTakeStayInMemory) {
  const Report r = ManyFiles();
  TempDir spill(DiskDir());
  JsonFileStage stage({spill.path()});
  ASSERT_TRUE(stage.spilled());
  struct rlimit saved{};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &saved), 0);
  auto old_handler = signal(SIGXFSZ, SIG_IGN);  // EFBIG instead of the signal
  struct rlimit small = saved;
  small.rlim_cur = 16 << 10;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  std::string staged = Staged(r, stage, 2);
  setrlimit(RLIMIT_FSIZE, &saved);
  signal(SIGXFSZ, old_handler);
  EXPECT_EQ(staged, Kept(r));
}

TEST(JsonFileStage, NoFileIsAnEmptyArray) {
  Report r = SampleReport();
  r.files.clear();
  JsonFileStage stage({});
  EXPECT_EQ(Staged(r, stage, 1), Kept(r));
  EXPECT_TRUE(nlohmann::json::parse(Kept(r))["files"].empty());
}

// A file's element is built a bundle at a time; the text is the element's whole dump, even
// where a path holds the text the bundles are put in place of.
TEST(JsonFileStage, AnElementBuiltABundleAtATimeIsItsWholeDump) {
  Report r = GoldenReport();
  size_t with_bundles = 0;
  for (FileFacts& f : r.files) {
    EXPECT_EQ(FileFactsElementText(f), ArrayElementText(FileFactsToJson(f))) << f.path;
    if (!f.device || f.device->bundles.empty()) continue;
    ++with_bundles;
    f.path = "/p/\n      \"bundles\": []";
    f.device->bundles[0].member = "\"bundles\": []";
    f.device->bundles.push_back(f.device->bundles[0]);
    EXPECT_EQ(FileFactsElementText(f), ArrayElementText(FileFactsToJson(f))) << f.path;
  }
  EXPECT_GT(with_bundles, 0u);
}

}  // namespace
}  // namespace rocm_audit::testing
