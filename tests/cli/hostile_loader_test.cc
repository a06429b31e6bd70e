// Issue 47, the loader's quadratic shapes (fixtures/hostile_loader47.py, made by
// make_hostile_tree.sh): a search of N names over M directories, and symlink chains past
// the kernel's 40 links. Each is audited by the real binary under the bounds (10 s
// of CPU, 4 GiB of address space, set as resource limits), held to the time and memory a
// linear search takes, and its verdicts checked one by one.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <set>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <nlohmann/json.hpp>

#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using Json = nlohmann::json;

struct Bounded {
  int exit_code = -1;  ///< -1: killed (a signal, or past a limit)
  double cpu_seconds = 0;
  long max_rss_mb = 0;
  Json report;
};

// The audit of `input` (JSON, absolute paths) under RLIMIT_CPU 10 s and RLIMIT_AS 4 GiB (not
// under AddressSanitizer).
Bounded AuditUnderLimits(const std::string& input, const TempDir& t) {
  const std::string out = t / "report.json";
  pid_t pid = fork();
  if (pid == 0) {
#ifndef ROCM_AUDIT_ASAN
    const rlimit cpu{10, 10}, as{4ul << 30, 4ul << 30};
    setrlimit(RLIMIT_AS, &as);
#else  // AddressSanitizer reserves terabytes of address space, and runs several times slower
    const rlimit cpu{300, 300};
#endif
    setrlimit(RLIMIT_CPU, &cpu);
    int fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 1);
    execl(ROCM_AUDIT_BINARY, ROCM_AUDIT_BINARY, "--no-progress", "--format", "json", "--absolute-paths",
          input.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  Bounded b;
  if (WIFEXITED(status)) b.exit_code = WEXITSTATUS(status);
  b.cpu_seconds = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                  static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  b.max_rss_mb = usage.ru_maxrss / 1024;
  b.report = Json::parse(ReadAll(out), nullptr, /*allow_exceptions=*/false);
  return b;
}

std::vector<Json> FindingsOf(const Json& report, const std::string& check) {
  std::vector<Json> out;
  for (const Json& f : report.value("findings", Json::array()))
    if (f.value("check", "") == check) out.push_back(f);
  return out;
}

const std::string kTree = ROCM_AUDIT_HOSTILE_TREE "/tree";

// Bounds a linear search keeps with room for a sanitizer build. The quadratic search took
// 20 s of CPU and 1.2 GB (1,500 x 1,500), and 3.6 s and 320 MB (40,000 names); the links,
// 8 s (3,000) and 20 s (5,000). What is left of the first is the report's: findings built
// for every name, most of them past the file's budget; under AddressSanitizer, 60 s or more.
#ifdef ROCM_AUDIT_ASAN
constexpr double kCpuSeconds = 240, kLinkCpuSeconds = 8;
constexpr long kRssMb = 2048;
#else
constexpr double kCpuSeconds = 8, kLinkCpuSeconds = 2;
constexpr long kRssMb = 256;
#endif

TEST(HostileLoader, ANameMissingFromEveryDirectoryIsLookedUpNotProbedInEach) {
  TempDir t;
  Bounded b = AuditUnderLimits(kTree + "/l47-wide/lib/libwide.so", t);
  ASSERT_EQ(b.exit_code, 1);
  EXPECT_LT(b.cpu_seconds, kCpuSeconds);
  EXPECT_LT(b.max_rss_mb, kRssMb);
  RecordProperty("wide_cpu_seconds", std::to_string(b.cpu_seconds));
  ASSERT_TRUE(b.report.is_object());
  // Every name is unresolved; the findings that fit the file's budget list all 1,500
  // RUNPATH directories, each not found, before the default directories.
  ASSERT_EQ(b.report["files"].size(), 1u);
  EXPECT_EQ(b.report["files"][0]["unresolved"].size(), 1500u);
  std::vector<Json> unresolved = FindingsOf(b.report, "unresolved-library");
  ASSERT_FALSE(unresolved.empty());
  for (const Json& f : unresolved) {
    const Json& searched = f["searched"];
    ASSERT_GE(searched.size(), 1500u) << f["library"];
    for (size_t i = 0; i < searched.size(); ++i) {
      EXPECT_EQ(searched[i]["outcome"], "not found") << f["library"] << " " << i;
      if (i < 1500) {
        EXPECT_EQ(searched[i]["source"], "RUNPATH of libwide.so");
        char dir[32];
        snprintf(dir, sizeof dir, "/lib/e/d%04zu", i);
        EXPECT_THAT(searched[i]["directory"].get<std::string>(), ::testing::EndsWith(dir));
      }
    }
  }
  EXPECT_EQ(FindingsOf(b.report, "finding-limit").size(), 1u);
}

TEST(HostileLoader, FortyThousandMissingNamesCostTheirLookupsOnly) {
  TempDir t;
  Bounded b = AuditUnderLimits(kTree + "/l47-many", t);
  ASSERT_EQ(b.exit_code, 1);
  EXPECT_LT(b.cpu_seconds, kCpuSeconds);
  EXPECT_LT(b.max_rss_mb, kRssMb);
  RecordProperty("many_cpu_seconds", std::to_string(b.cpu_seconds));
  ASSERT_TRUE(b.report.is_object());
  ASSERT_EQ(b.report["files"].size(), 1u);
  const Json& names = b.report["files"][0]["unresolved"];
  ASSERT_EQ(names.size(), 40000u);
  EXPECT_EQ(names[0], "libgone00000.so");
  EXPECT_EQ(names[39999], "libgone39999.so");
  std::vector<Json> unresolved = FindingsOf(b.report, "unresolved-library");
  ASSERT_FALSE(unresolved.empty());
  for (const Json& f : unresolved) {
    ASSERT_FALSE(f["searched"].empty());
    for (const Json& s : f["searched"]) EXPECT_EQ(s["outcome"], "not found") << f["library"];
  }
  EXPECT_EQ(FindingsOf(b.report, "finding-limit").size(), 1u);
}

// The symlink-loop findings of one directory of links, by wording.
std::multiset<std::string> LinkVerdicts(const Json& report) {
  std::multiset<std::string> out;
  for (const Json& f : FindingsOf(report, "symlink-loop")) {
    const std::string m = f.value("message", "");
    out.insert(m.find("loops back on itself") != std::string::npos          ? "cycle"
               : m.find("more than 40 symbolic links") != std::string::npos ? "too many"
                                                                            : m);
  }
  return out;
}

TEST(HostileLoader, ChainedLinksAreResolvedOnceWithTheirTrueVerdict) {
  for (const std::string dir : {"chain", "cycle", "long"}) {
    TempDir t;
    Bounded b = AuditUnderLimits(kTree + "/l47-links/" + dir, t);
    EXPECT_TRUE(b.exit_code == 0 || b.exit_code == 1) << dir;
    EXPECT_LT(b.cpu_seconds, kLinkCpuSeconds) << dir;
    EXPECT_LT(b.max_rss_mb, kRssMb) << dir;
    RecordProperty(dir + "_cpu_seconds", std::to_string(b.cpu_seconds));
    std::multiset<std::string> verdicts = LinkVerdicts(b.report);
    ASSERT_FALSE(verdicts.empty()) << dir;
    // A chain ending at a file is too many links from every link more than 40 from its
    // end, however long (5,000 is past the 4,096 links once followed to tell): no cycle.
    const std::string expected = dir == "cycle" ? "cycle" : "too many";
    EXPECT_EQ(verdicts.count(expected), verdicts.size()) << dir;
    if (dir != "cycle") {
      // The last 40 links resolve: the file is audited through them (malformed).
      EXPECT_EQ(FindingsOf(b.report, "malformed-file").size(), 1u) << dir;
    }
  }
}

}  // namespace
}  // namespace rocm_audit::testing
