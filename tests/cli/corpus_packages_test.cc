// Debian's real ROCm packages (../shared/corpus/fetch.sh keeps the .debs) audited as .debs,
// installed over /, give the verdicts of the same packages after `dpkg-deb -x` audited with
// --root D --root /, with every path inside the package: every .deb under 20 MB of sid and
// bookworm, and sets that resolve only together, in several orders. Skips without the
// corpus.
#include <gtest/gtest.h>

#include <algorithm>
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
  if (!std::filesystem::is_directory(debs)) ROCM_AUDIT_SKIP_NO_CORPUS << "no corpus at " << debs;
  size_t compared = 0, findings = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(debs)) {
    const std::string deb = entry.path().string();
    if (!deb.ends_with(".deb") || entry.file_size() > (20u << 20)) continue;
    TempDir t;
    ASSERT_EQ(RunCommand("dpkg-deb -x '" + deb + "' " + t / "x"), 0) << deb;
    std::string a, b;
    const std::string bin = std::string(ROCM_AUDIT_BINARY) + " --no-progress --fail-on none --format json ";
    ASSERT_EQ(RunCommand(bin + "'" + deb + "'", &a), 0) << deb;
    ASSERT_EQ(RunCommand(bin + "--root " + t / "x" + " --root / " + t / "x", &b), 0) << deb;
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

// The file names a set's packages ship (dpkg-deb -x of all of them into `into`).
std::set<std::string> ShippedNames(const std::vector<std::string>& set, const std::string& into) {
  std::set<std::string> names;
  for (const std::string& deb : set) EXPECT_EQ(RunCommand("dpkg-deb -x '" + deb + "' " + into), 0) << deb;
  for (const auto& e : std::filesystem::recursive_directory_iterator(into))
    names.insert(e.path().filename().string());
  return names;
}

// Sets of real packages that resolve only together (rocminfo needs the set's HSA runtime;
// librocsparse0, the set's HIP runtime): in three orders, no package-limit and
// byte-identical findings; no unresolved library that a member of the set ships; and the
// verdicts of the set's `dpkg-deb -x` into one directory audited over /. None of the
// packages is installed on the host, so the base holds no older copy of them.
TEST(CorpusPackages, SetsResolveTogetherInEveryOrder) {
  const std::string debs = CorpusRoot() + "/debs";
  if (!std::filesystem::is_directory(debs)) ROCM_AUDIT_SKIP_NO_CORPUS << "no corpus at " << debs;
  const std::vector<std::vector<std::string>> sets = {
      {"bookworm/rocminfo_", "bookworm/librocsparse0_", "bookworm/libhsa-runtime64-1_",
       "bookworm/libhsakmt1_", "bookworm/libamdhip64-5_", "bookworm/libamd-comgr2_"},
      {"sid/libhipfft0_", "sid/librocfft0_", "sid/libamdhip64-6_", "sid/libhsa-runtime64-1_",
       "sid/libhsakmt1_", "sid/libamd-comgr3_", "sid/libllvm21_", "sid/libxml2-16_", "sid/libelf1t64_"},
      {"bookworm/libhiprand1_", "bookworm/librocrand1_", "bookworm/libamdhip64-5_",
       "bookworm/libhsa-runtime64-1_", "bookworm/libhsakmt1_", "bookworm/libamd-comgr2_"}};
  const std::string bin = std::string(ROCM_AUDIT_BINARY) + " --no-progress --fail-on none --format json ";
  size_t resolved = 0;
  for (const auto& prefixes : sets) {
    std::vector<std::string> set;
    for (const std::string& prefix : prefixes) {
      const std::string dir = debs + "/" + prefix.substr(0, prefix.find('/'));
      for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.path().filename().string().starts_with(prefix.substr(prefix.find('/') + 1)) &&
            e.path().extension() == ".deb")
          set.push_back(e.path().string());
    }
    if (set.size() != prefixes.size() && CorpusIsSlice()) continue;  // a set the slice does not hold
    ASSERT_EQ(set.size(), prefixes.size()) << prefixes[0];
    ++resolved;
    std::sort(set.begin(), set.end());
    std::vector<std::vector<std::string>> orders = {set, set, set};
    std::reverse(orders[1].begin(), orders[1].end());
    std::rotate(orders[2].begin(), orders[2].begin() + 2, orders[2].end());
    std::string first;
    nlohmann::json report;
    for (const auto& order : orders) {
      std::string args, out;
      for (const std::string& deb : order) args += " '" + deb + "'";
      ASSERT_EQ(RunCommand(bin + args, &out), 0) << args;
      report = nlohmann::json::parse(out);
      const std::string findings = report["findings"].dump();
      EXPECT_EQ(findings.find("package-limit"), std::string::npos) << args;
      if (first.empty())
        first = findings;
      else
        EXPECT_EQ(findings, first) << args;
    }
    TempDir t;
    const std::set<std::string> shipped = ShippedNames(set, t / "x");
    for (const auto& f : report["findings"])
      if (f["check"] == "unresolved-library")
        EXPECT_EQ(shipped.count(f["library"].get<std::string>()), 0u) << f.dump();
    std::string tree;
    ASSERT_EQ(RunCommand(bin + "--root " + t / "x" + " --root / " + t / "x", &tree), 0);
    EXPECT_EQ(Verdicts(report), Verdicts(nlohmann::json::parse(tree))) << prefixes[0];
    std::cout << set.size() << " packages, " << report["findings"].size() << " findings in every order\n";
  }
  EXPECT_GT(resolved, 0u);  // the slice holds the third set
}

}  // namespace
}  // namespace rocm_audit::testing
