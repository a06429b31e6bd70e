// Debian's real ROCm packages (../shared/corpus/fetch.sh keeps the .debs) audited as .debs
// give the verdicts of the same packages after `dpkg-deb -x`, with every path inside the
// package. Every .deb under 20 MB of sid and bookworm (the large ones take as long as xz
// takes: 35 s for the 530 MB librocsolver0, where `dpkg-deb -x` takes 22 s). Skips without
// the corpus.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/support/audit_support.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

std::multiset<std::string> Verdicts(const nlohmann::json& report) {
  std::multiset<std::string> out;
  const nlohmann::json& findings = report["findings"];
  for (const auto& f : findings)
    out.insert(f["check"].get<std::string>() + " " + f["key"].get<std::string>());
  return out;
}

TEST(CorpusPackages, DebsGiveTheVerdictsOfTheirUnpackedTrees) {
  const std::string debs = CorpusRoot() + "/debs";
  if (!std::filesystem::is_directory(debs)) GTEST_SKIP() << "no corpus at " << debs;
  size_t compared = 0, findings = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(debs)) {
    const std::string deb = entry.path().string();
    if (!deb.ends_with(".deb") || entry.file_size() > (20u << 20)) continue;
    TempDir t;
    ASSERT_EQ(RunCommand("dpkg-deb -x '" + deb + "' " + t / "x"), 0) << deb;
    std::string a, b;
    const std::string bin = std::string(ROCM_AUDIT_BINARY) + " --no-progress --fail-on none --format json ";
    ASSERT_EQ(RunCommand(bin + "'" + deb + "'", &a), 0) << deb;
    ASSERT_EQ(RunCommand(bin + t / "x", &b), 0) << deb;
    const auto as_deb = nlohmann::json::parse(a), as_tree = nlohmann::json::parse(b);
    EXPECT_EQ(Verdicts(as_deb), Verdicts(as_tree)) << deb;
    const std::string name = entry.path().filename().string();
    const nlohmann::json& list = as_deb["findings"];
    for (const auto& f : list)
      EXPECT_TRUE(f["file"].get<std::string>().starts_with(name + ":/")) << f["file"];
    EXPECT_EQ(as_deb["inputs"]["packages"][0]["format"], "deb");
    findings += list.size();
    ++compared;
  }
  EXPECT_GE(compared, 50u);
  std::cout << "compared " << compared << " .debs, " << findings << " findings\n";
}

}  // namespace
}  // namespace rocm_audit::testing
