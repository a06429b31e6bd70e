// Facts on demand: a run reads device code and evaluates CMake configs only when a running
// check needs them (Check::needs). Each check, run alone, finds exactly what it finds in a
// full run, so a check that under-declares what it needs fails here; and a loader-only run
// reads no device code at all.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "checks/registry.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using Json = nlohmann::json;

const std::vector<std::string>& Trees() {
  static const std::vector<std::string> trees = {
      ROCM_AUDIT_DEMO_TREE,
      std::string("--require-arch gfx906,gfx90a,gfx1030,gfx1100 ") + ROCM_AUDIT_GPU_TREE,
      ROCM_AUDIT_CMAKE_TREE};
  return trees;
}

Json Audit(const std::string& args) {
  std::string out;
  EXPECT_EQ(RunCommand(std::string(ROCM_AUDIT_BINARY) + " --no-progress --fail-on none --format json " + args,
                       &out),
            0);
  return Json::parse(out, nullptr, false);
}

std::multiset<std::string> Keys(const Json& report, const std::set<std::string>& checks) {
  std::multiset<std::string> out;
  const Json& findings = report["findings"];
  for (const Json& f : findings)
    if (checks.count(f["check"]))
      out.insert(f["key"].get<std::string>() + " " + f["message"].get<std::string>());
  return out;
}

TEST(FactsOnDemand, EachCheckAloneFindsWhatItFindsInAFullRun) {
  for (const std::string& tree : Trees()) {
    const Json full = Audit(tree);
    for (const Check* check : AllChecks()) {
      std::set<std::string> ids;
      std::string list;
      for (const Rule& r : check->rules) {
        ids.insert(std::string(r.id));
        list += (list.empty() ? "" : ",") + std::string(r.id);
      }
      const Json alone = Audit("--enable " + list + " " + tree);
      EXPECT_EQ(Keys(alone, ids), Keys(full, ids)) << check->name << " on " << tree;
    }
  }
}

TEST(FactsOnDemand, ALoaderOnlyRunReadsNoDeviceCode) {
  const Json report = Audit("--enable 'undefined-symbol,unresolved-library,missing-version' " +
                            std::string(ROCM_AUDIT_GPU_TREE));
  const Json& files = report["files"];
  ASSERT_FALSE(files.empty());
  for (const Json& f : files) EXPECT_FALSE(f.contains("bundles")) << f["path"];
  const Json gpu = Audit(std::string("--enable malformed-bundle ") + ROCM_AUDIT_GPU_TREE);
  size_t with_bundles = 0;
  const Json& gpu_files = gpu["files"];
  for (const Json& f : gpu_files) with_bundles += f.contains("bundles");
  EXPECT_GT(with_bundles, 5u);
}

TEST(FactsOnDemand, NoCMakeCheckNoCMakeEvaluation) {
  const Json report = Audit(std::string("--disable 'cmake-*' ") + ROCM_AUDIT_CMAKE_TREE);
  const Json& files = report["files"];
  for (const Json& f : files) EXPECT_FALSE(f.contains("cmake")) << f["path"];
  const Json with = Audit(ROCM_AUDIT_CMAKE_TREE);
  size_t evaluated = 0;
  const Json& with_files = with["files"];
  for (const Json& f : with_files) evaluated += f.contains("cmake");
  EXPECT_GT(evaluated, 0u);
}

}  // namespace
}  // namespace rocm_audit::testing
