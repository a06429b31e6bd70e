// The hostile-input tree (fixtures/make_hostile_tree.sh): every case is audited by the real
// binary, in a process of its own, and must end as the findings cases.tsv names, with exit 0
// or 1, within a time and a memory bound. Bombs, lying headers, loops, huge directories, deep
// nesting, FIFOs, devices, unreadable files, CMake code that never ends: a finding each, never
// a crash, a hang or an exhausted machine. CI runs this under ASan and UBSan too.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include <gmock/gmock.h>
#include <nlohmann/json.hpp>

#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

namespace fs = std::filesystem;

// Bounds for one case. The slowest case (100,000 entries) takes about 3 s and 90 MB here; the
// bounds leave room for a sanitizer build and a busy machine, not for a hang or a bomb.
// Under AddressSanitizer the slowest case (1,500 names missing from 1,500 RUNPATH directories,
// 3.6 s of CPU plain) takes about 98 s.
#ifdef ROCM_AUDIT_ASAN
constexpr int kSeconds = 300;
#else
constexpr int kSeconds = 120;
#endif
constexpr long kMaxRssKb = 1536 * 1024;

struct HostileCase {
  std::string name, input, options, scope;
  std::vector<std::string> expected;
};

// Shown by name in test output (gtest would print the bytes).
void PrintTo(const HostileCase& c, std::ostream* os) { *os << c.name; }

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, sep);) out.push_back(item);
  if (!s.empty() && s.back() == sep) out.push_back("");
  return out;
}

std::vector<HostileCase> ReadCases() {
  std::ifstream in(ROCM_AUDIT_HOSTILE_TREE "/cases.tsv");
  std::vector<HostileCase> out;
  std::string line;
  std::getline(in, line);  // the header
  while (std::getline(in, line)) {
    auto f = Split(line, '\t');
    if (f.size() != 5) continue;
    out.push_back({f[0], f[1], f[2], f[4], Split(f[3], ',')});
  }
  return out;
}

struct Run {
  int exit_code = -1;  ///< -1: killed (a signal or the time bound)
  double seconds = 0;
  long max_rss_kb = 0;
  std::string output;
};

// Runs `argv` with its standard output in a file, killed after `seconds`; the peak RSS comes
// from the kernel's accounting of the child (wait4).
Run RunBounded(const std::vector<std::string>& argv, const std::string& out_file, int seconds = kSeconds) {
  Run r;
  auto start = std::chrono::steady_clock::now();
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 1);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  struct rusage usage{};
  while (wait4(pid, &status, WNOHANG, &usage) == 0) {
    if (std::chrono::steady_clock::now() - start > std::chrono::seconds(seconds)) {
      kill(pid, SIGKILL);
      wait4(pid, &status, 0, &usage);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.max_rss_kb = usage.ru_maxrss;
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  r.output = ReadAll(out_file);
  return r;
}

// Audits `input` (JSON, absolute paths) with `binary`, run as `user` when one is given (root
// drops to it with setpriv, so that permissions apply), and checks the bounds and exit code.
// "{tree}" in `options` is the hostile tree. `elapsed`, when given, is the run's wall time.
nlohmann::json AuditBounded(const std::string& input, const std::string& options, const TempDir& t,
                            const std::string& binary = ROCM_AUDIT_BINARY, const std::string& user = "",
                            int seconds = kSeconds, double* elapsed = nullptr, long max_rss_kb = kMaxRssKb) {
  std::vector<std::string> argv;
  if (!user.empty())
    argv = {"/usr/bin/setpriv", "--reuid=" + user, "--regid=" + user, "--clear-groups", "--"};
  argv.insert(argv.end(), {binary, "--no-progress", "--format", "json", "--absolute-paths"});
  for (std::string o : Split(options, ' ')) {
    if (size_t at = o.find("{tree}"); at != std::string::npos) o.replace(at, 6, ROCM_AUDIT_HOSTILE_TREE);
    if (!o.empty()) argv.push_back(o);
  }
  argv.push_back(input);
  Run r = RunBounded(argv, t / "report.json", seconds);
  if (elapsed) *elapsed = r.seconds;
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1)
      << "exit " << r.exit_code << " after " << r.seconds << " s";
  EXPECT_LT(r.seconds, seconds);
  EXPECT_LT(r.max_rss_kb, max_rss_kb) << "peak RSS";
  auto report = nlohmann::json::parse(r.output, nullptr, /*allow_exceptions=*/false);
  EXPECT_TRUE(report.is_object()) << r.output.substr(0, 400);
  return report.is_object() ? report : nlohmann::json::object();
}

// The checks reported, and by file.
std::set<std::string> ChecksOf(const nlohmann::json& report, const std::string& file = "") {
  std::set<std::string> out;
  if (!report.contains("findings")) return out;
  const nlohmann::json& findings = report["findings"];
  for (const auto& f : findings)
    if (file.empty() || f.value("file", "") == file) out.insert(f.value("check", ""));
  return out;
}

class HostileInput : public ::testing::TestWithParam<HostileCase> {};

TEST_P(HostileInput, EndsAsFindingsInBoundedTimeAndMemory) {
  const HostileCase& c = GetParam();
  TempDir t;
  const std::string input = std::string(ROCM_AUDIT_HOSTILE_TREE) + "/" + c.input;
  nlohmann::json report = AuditBounded(input, c.options, t);
  std::set<std::string> checks = ChecksOf(report);
  for (const std::string& e : c.expected) EXPECT_TRUE(checks.count(e)) << c.name << ": no " << e;
  if (c.scope != "each") return;
  // Every file of the case is a finding of its own: none is lost among the others.
  size_t files = 0;
  for (const auto& e : fs::recursive_directory_iterator(input)) {
    if (!e.is_regular_file()) continue;
    ++files;
    std::set<std::string> mine = ChecksOf(report, e.path().string());
    bool any = false;
    for (const std::string& x : c.expected) any |= mine.count(x) > 0;
    EXPECT_TRUE(any) << e.path() << " is not reported as any of the expected checks";
  }
  EXPECT_GT(files, 0u);
}

std::string CaseName(const ::testing::TestParamInfo<HostileCase>& info) {
  std::string n = info.param.name;
  for (char& ch : n)
    if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Tree, HostileInput, ::testing::ValuesIn(ReadCases()), CaseName);

// A copy of a case where another user can reach it (a fresh directory is private to its
// owner), with the binary beside it; returns the copy's path.
std::string WorldReadableCopy(const TempDir& t, const std::string& rel) {
  chmod(t.path().c_str(), 0755);
  EXPECT_EQ(RunCommand("cp -a '" ROCM_AUDIT_HOSTILE_TREE "/" + rel + "' '" + t / "case" + "' && cp '" +
                       ROCM_AUDIT_BINARY + "' '" + t / "rocm-audit" + "'"),
            0);
  return t / "case";
}

TEST(HostileInput, UnreadableFilesAndDirectoriesAreFindings) {
  TempDir t;
  std::string tree = WorldReadableCopy(t, "tree/unreadable");
  ASSERT_EQ(chmod((tree + "/lib/libclosed.so").c_str(), 0), 0);
  ASSERT_EQ(chmod((tree + "/lib/closed").c_str(), 0), 0);
  // Permissions bind only a user without CAP_DAC_OVERRIDE: root audits as nobody.
  std::string user = geteuid() == 0 ? "65534" : "";
  nlohmann::json report = AuditBounded(tree, "", t, t / "rocm-audit", user);
  EXPECT_EQ(ChecksOf(report, tree + "/lib/libclosed.so"), std::set<std::string>{"unreadable-file"});
  EXPECT_EQ(ChecksOf(report, tree + "/lib/closed"), std::set<std::string>{"unreadable-file"});
  EXPECT_EQ(ChecksOf(report, tree + "/lib/libbroken.so"), std::set<std::string>{"malformed-file"});
  chmod((tree + "/lib/closed").c_str(), 0755);  // so that the TempDir can be removed
}

TEST(HostileInput, DeviceNodeIsNeverOpened) {
  if (geteuid() != 0) ROCM_AUDIT_SKIP_NEEDS_ROOT << "mknod(2) needs root";
  TempDir t;
  std::string tree = WorldReadableCopy(t, "tree/device");
  // /dev/zero's numbers: read, it would never end.
  ASSERT_EQ(mknod((tree + "/lib/libzero.so.1").c_str(), S_IFCHR | 0644, makedev(1, 5)), 0);
  nlohmann::json report = AuditBounded(tree, "", t);
  EXPECT_EQ(ChecksOf(report, tree + "/lib/libzero.so.1"), std::set<std::string>{"special-file"});
  EXPECT_EQ(ChecksOf(report, tree + "/lib/libbroken.so"), std::set<std::string>{"malformed-file"});
}

// Issue 34's cases, each with a bound of its own: they end in milliseconds, and a FIFO that
// blocked, or a closure quadratic in its size, would take the whole bound. Under ASan the
// 10,001-file fan takes 4.7 s of CPU (0.8 s plain) and 13 s of wall time on a busy machine.
#ifdef ROCM_AUDIT_ASAN
constexpr int kQuickSeconds = 40;
#else
constexpr int kQuickSeconds = 10;
#endif

nlohmann::json AuditQuickly(const std::string& input, const std::string& options, const TempDir& t,
                            double* elapsed = nullptr) {
  return AuditBounded(std::string(ROCM_AUDIT_HOSTILE_TREE) + "/" + input, options, t, ROCM_AUDIT_BINARY, "",
                      kQuickSeconds, elapsed);
}

// The searched directories of the unresolved-library finding for `library`, as "outcome".
std::vector<std::string> OutcomesFor(const nlohmann::json& report, const std::string& library) {
  std::vector<std::string> out;
  for (const auto& f : report.value("findings", nlohmann::json::array()))
    if (f.value("check", "") == "unresolved-library" && f.value("library", "") == library)
      for (const auto& s : f["searched"]) out.push_back(s.value("outcome", ""));
  return out;
}

TEST(HostileInput, FifoWhereTheLoaderLooksIsSkippedNeverOpened) {
  // ld.so opens each candidate O_RDONLY and would wait for a writer for ever; the audit
  // skips it as not a regular file and searches on, there and behind a directory symlink.
  TempDir t;
  nlohmann::json r = AuditQuickly("tree/fifo-needed/lib/libuser.so", "", t);
  std::vector<std::string> fifo = OutcomesFor(r, "libfifo.so.1"), fifo2 = OutcomesFor(r, "libfifo2.so.1");
  ASSERT_GE(fifo.size(), 2u);
  EXPECT_EQ(fifo[0], "skipped: not a regular file (a FIFO)");
  EXPECT_EQ(fifo[1], "not found");  // the search went on
  ASSERT_GE(fifo2.size(), 2u);
  EXPECT_EQ(fifo2[1], "skipped: not a regular file (a FIFO)");
  // A DT_NEEDED naming a FIFO by its absolute path, inside --root.
  r = AuditQuickly("tree/fifo-absolute/opt/libabs.so", "--root {tree}/tree/fifo-absolute", t);
  EXPECT_EQ(OutcomesFor(r, "/lib/libfifo-abs.so.1"),
            std::vector<std::string>{"skipped: not a regular file (a FIFO)"});
}

TEST(HostileInput, LdSoConfFifosAndSelfIncludesAreReadOnceNeverBlocking) {
  TempDir t;
  // etc/ld.so.conf a FIFO: not read (the walk reports it), so ld.so.conf names nothing.
  nlohmann::json r = AuditQuickly("tree/conf-fifo", "--root {tree}/tree/conf-fifo", t);
  EXPECT_EQ(r["inputs"]["ld_so_conf_dirs"], nlohmann::json::array());
  EXPECT_EQ(ChecksOf(r), (std::set<std::string>{"special-file", "unresolved-library"}));
  // An include glob matching a FIFO first: skipped, and the next file is read.
  r = AuditQuickly("tree/conf-glob-fifo", "--root {tree}/tree/conf-glob-fifo", t);
  EXPECT_EQ(r["inputs"]["ld_so_conf_dirs"], nlohmann::json::array({"/opt/found"}));
  EXPECT_EQ(ChecksOf(r), std::set<std::string>{"special-file"});
  // Included by itself three times: read once (3^16 times when only the depth was bounded).
  double seconds = 0;
  r = AuditQuickly("tree/conf-self", "--root {tree}/tree/conf-self", t, &seconds);
  EXPECT_EQ(r["inputs"]["ld_so_conf_dirs"], nlohmann::json::array({"/opt/found"}));
  EXPECT_TRUE(ChecksOf(r).empty());
  RecordProperty("conf_self_seconds", std::to_string(seconds));
}

TEST(HostileInput, ClosuresOf10000LibrariesAreBuiltInLinearTime) {
  TempDir t;
  // lib0 needs lib1 needs lib2 ... needs lib9999, which needs a library that does not exist.
  double seconds = 0;
  nlohmann::json r = AuditQuickly("tree/chain/lib/libchain00000.so", "", t, &seconds);
  RecordProperty("chain_seconds", std::to_string(seconds));
  ASSERT_EQ(r["files"].size(), 1u);
  // 9,999 objects: the first 512 listed, the rest counted.
  EXPECT_EQ(r["files"][0]["closure"].size(), 512u);
  EXPECT_EQ(r["files"][0]["closure_left_out"], 9999 - 512);
  EXPECT_EQ(r["files"][0]["unresolved"], nlohmann::json::array({"libchain10000.so"}));
  EXPECT_EQ(OutcomesFor(r, "libchain10000.so").front(), "not found");
  // One library needing 10,000 others, audited with them.
  r = AuditQuickly("tree/fan", "", t, &seconds);
  RecordProperty("fan_seconds", std::to_string(seconds));
  ASSERT_EQ(r["files"].size(), 10001u);
  bool head = false;
  for (const auto& f : r["files"])
    if (f.value("path", "").ends_with("/libfanhead.so")) {
      head = true;
      EXPECT_EQ(f["closure"].size(), 512u);
      EXPECT_EQ(f["closure_left_out"], 10000 - 512);
      EXPECT_EQ(f["needed"].size(), 10000u);
    }
  EXPECT_TRUE(head);
  EXPECT_TRUE(ChecksOf(r).empty());
}

// Every library of a chain of 1,000 audited as a tree: each is an audited file whose closure
// is the rest of the chain, 499,500 closure objects in all. The run's loader searches are
// shared, and each closure is let go once its file's checks have read it: the peak is a
// closure or two, not every closure at once; the bound on peak memory below is what that
// allows, well under what holding every closure needs. files[].closure lists the first 512
// objects and counts the rest.
TEST(HostileInput, EveryLibraryOfAChainAuditedAsATree) {
  TempDir t;
  constexpr size_t kLength = 1000;
#ifdef ROCM_AUDIT_ASAN
  constexpr long kMaxKb = 768 * 1024;  // AddressSanitizer's quarantine (256 MB) and shadow
#else
  constexpr long kMaxKb = 96 * 1024;
#endif
  double seconds = 0;
  const std::string dir = std::string(ROCM_AUDIT_HOSTILE_TREE) + "/tree/chain-dir/lib";
  nlohmann::json r = AuditBounded(dir, "", t, ROCM_AUDIT_BINARY, "", kSeconds, &seconds, kMaxKb);
  RecordProperty("chain_directory_seconds", std::to_string(seconds));
  ASSERT_EQ(r["files"].size(), kLength);
  auto library = [&](size_t i) {
    char name[32];
    std::snprintf(name, sizeof name, "/libchain%05zu.so", i);
    return dir + name;
  };
  std::set<std::string> seen;
  for (const auto& f : r["files"]) {
    const std::string path = f.value("path", "");
    ASSERT_TRUE(path.ends_with(".so") && path.size() > 8) << path;
    const size_t i = std::stoul(path.substr(path.size() - 8, 5));
    seen.insert(path);
    const size_t members = kLength - 1 - i;  // libchain(i+1) to libchain00999
    ASSERT_EQ(f["closure"].size(), std::min<size_t>(members, 512)) << path;
    EXPECT_EQ(f.value("closure_left_out", size_t{0}), members > 512 ? members - 512 : 0) << path;
    if (members > 0) {
      EXPECT_EQ(f["closure"].front(), library(i + 1)) << path;
      EXPECT_EQ(f["closure"].back(), library(i + std::min<size_t>(members, 512))) << path;
    }
    EXPECT_EQ(f["unresolved"], nlohmann::json::array({"libchain01000.so"})) << path;
  }
  EXPECT_EQ(seen.size(), kLength);
  EXPECT_EQ(ChecksOf(r), std::set<std::string>{"unresolved-library"});
}

// ".." in a RUNPATH is taken as the kernel takes it, not normalised away: after a directory
// symlink it is the parent of the link's target (app/link -> ../real/inner, so app/link/..
// is real/, which holds libdep.so; app/ does not), with or without --root.
TEST(HostileInput, DotDotInARunpathIsTheKernels) {
  for (const std::string& root : std::vector<std::string>{"", "--root {tree}/tree/dotdot"}) {
    TempDir t;
    nlohmann::json r = AuditQuickly("tree/dotdot/app/libmain.so", root, t);
    ASSERT_EQ(r["files"].size(), 1u) << root;
    EXPECT_EQ(r["files"][0]["closure"].size(), 1u) << root;
    EXPECT_EQ(r["files"][0]["unresolved"], nlohmann::json::array()) << root;
    EXPECT_TRUE(ChecksOf(r).empty()) << root;
  }
}

// A chain of 600 libraries, each with RUNPATH $ORIGIN/../d<next>: the path ld.so opens grows
// by 8 bytes a library ("/../d001"), and the first that reaches PATH_MAX cannot be opened
// (ENAMETOOLONG), however short the directory it names is.
TEST(HostileInput, ADotDotChainPastPathMaxCannotBeOpened) {
  TempDir t;
  nlohmann::json r = AuditQuickly("tree/dirchain/d000/libe000.so", "", t);
  ASSERT_EQ(r["files"].size(), 1u);
  const nlohmann::json& closure = r["files"][0]["closure"];
  const nlohmann::json& unresolved = r["files"][0]["unresolved"];
  ASSERT_EQ(unresolved.size(), 1u);
  const std::string missing = unresolved[0];
  EXPECT_LT(closure.size(), 599u);  // stopped before the end of the chain
  EXPECT_GT(closure.size(), 400u);
  EXPECT_NE(missing, "libe600.so");
  RecordProperty("found_before_path_max", std::to_string(closure.size()));
  std::vector<std::string> outcomes = OutcomesFor(r, missing);  // RUNPATH first, then the defaults
  ASSERT_GE(outcomes.size(), 1u);
  EXPECT_EQ(outcomes[0], "cannot open: the path is longer than PATH_MAX (4,096 bytes; ENAMETOOLONG)");
}

// Memory follows the input, not how often it points at one thing: the 4,096 entries of the
// CCOB share one copy of their code object (64 GiB claimed, one entry per copy), the 16,000
// DT_NEEDED entries one name (16 GiB as copies). The bound is a generous multiple of what a
// run of the binary on a small tree takes, far below either amplification.
TEST(HostileInput, SharedOffsetsAreReadOnce) {
  constexpr long kSharedRssKb = 256 * 1024;
  for (const char* rel : {"shared/gpu", "shared/needed"}) {
    TempDir t;
    double seconds = 0;
    nlohmann::json report = AuditBounded(std::string(ROCM_AUDIT_HOSTILE_TREE) + "/" + rel, "", t,
                                         ROCM_AUDIT_BINARY, "", 60, &seconds, kSharedRssKb);
    EXPECT_LT(seconds, 30) << rel;
    ASSERT_TRUE(report.contains("files")) << rel;
    EXPECT_EQ(report["files"].size(), std::string(rel) == "shared/gpu" ? 1u : 4u) << rel;
  }
}

// The 4,096 entries of one CCOB point at one broken code object: one finding, which says
// how many entries are alike and names the first few, where there were 4,096 of one text.
TEST(HostileInput, FindingsAlikeButForAnEntryIndexAreOne) {
  TempDir t;
  nlohmann::json r = AuditQuickly("shared/gpu", "", t);
  ASSERT_EQ(r["findings"].size(), 1u);
  const nlohmann::json& f = r["findings"][0];
  EXPECT_EQ(f["check"], "malformed-bundle");
  EXPECT_EQ(f["repeated"]["count"], 4096);
  EXPECT_EQ(f["repeated"]["numbers"], nlohmann::json::array({0, 1, 2, 3, 4}));
  EXPECT_NE(f["message"].get<std::string>().find(
                "entry 0 ('hipv4-amdgcn-amd-amdhsa--gfx90a') is not a valid AMDGPU code object"),
            std::string::npos);
  EXPECT_NE(f["message"].get<std::string>().find("[4096 alike, differing only in number 1 of this message: "
                                                 "0, 1, 2, 3, 4, ...]"),
            std::string::npos)
      << f["message"];
  EXPECT_EQ(r["summary"]["by_check"]["malformed-bundle"], 1);
}

// The DT_NEEDED names of one file: 100,000 entries at one 1 MiB string, and a name of 100 MB.
// ld.so opens neither (ENAMETOOLONG in every directory), and neither is copied per entry
// or per directory searched: memory stays a small multiple of the file.
TEST(HostileInput, NamesNoOpenCanTakeAreDecidedOnceWithoutCopies) {
  TempDir t;
  const std::string many = "shared/needed/libneeded-100000-one-string.so";
  double seconds = 0;
  nlohmann::json r = AuditQuickly(many, "", t, &seconds);
  RecordProperty("many_seconds", std::to_string(seconds));
  ASSERT_EQ(r["files"].size(), 1u);
  EXPECT_EQ(r["files"][0]["unresolved"].size(), 1u);
  size_t unresolved = 0;
  for (const auto& f : r["findings"]) {
    if (f["check"] != "unresolved-library") continue;
    ++unresolved;
    EXPECT_FALSE(f["searched"].empty());
    for (const auto& step : f["searched"])
      EXPECT_EQ(step["outcome"], "cannot open: the name is longer than PATH_MAX (4,096 bytes; ENAMETOOLONG)");
  }
  EXPECT_EQ(unresolved, 1u);

  const std::string huge = std::string(ROCM_AUDIT_HOSTILE_TREE) + "/tree/huge-needed/lib/libhuge.so";
  struct stat st;
  ASSERT_EQ(stat(huge.c_str(), &st), 0);
  // The mapping of the file, the one copy the closure keeps, one transient copy, and what the
  // run needs at all: 305 MB measured for the 100 MB name.
#ifdef ROCM_AUDIT_ASAN
  // AddressSanitizer keeps freed blocks in its quarantine (256 MB) and adds its shadow.
  constexpr long kSanitizerFactor = 2;
#else
  constexpr long kSanitizerFactor = 1;
#endif
  const long bound_kb = kSanitizerFactor * (3 * st.st_size / 1024 + 64 * 1024);
  r = AuditBounded(huge, "", t, ROCM_AUDIT_BINARY, "", kQuickSeconds, &seconds, bound_kb);
  RecordProperty("huge_seconds", std::to_string(seconds));
  ASSERT_EQ(r["files"].size(), 1u);
  EXPECT_EQ(r["files"][0]["unresolved"].size(), 1u);
}

// 30,000 valid bundles in one file: files[].bundles lists 10,000 and counts the rest, and
// the text summary still counts them all.
TEST(HostileInput, BundlesListedPerFileAreCappedAndCounted) {
  TempDir t;
  nlohmann::json r = AuditQuickly("many-bundles", "", t);
  ASSERT_EQ(r["files"].size(), 1u);
  EXPECT_EQ(r["files"][0]["bundles"].size(), 10000u);
  EXPECT_EQ(r["files"][0]["bundles_left_out"], 20000);
  EXPECT_TRUE(ChecksOf(r).empty());
  std::string text;
  RunCommand(std::string(ROCM_AUDIT_BINARY) + " --no-progress --verbose '" + ROCM_AUDIT_HOSTILE_TREE +
                 "/many-bundles'",
             &text);
  EXPECT_NE(text.find("30000 bundles"), std::string::npos) << text.substr(0, 2000);
}

// Not built with AddressSanitizer, which reserves terabytes of address space: no limit
// applies there (the plain build runs it).
#ifndef ROCM_AUDIT_ASAN
// Memory that runs out after a file was read (its closure copies its 100 MB DT_NEEDED) is that
// file's finding; the other file of the tree is audited and reported, and the run ends with
// its own exit status, never an abort (134). The address space is limited as `prlimit --as`
// does: the run needs ~60 MB, the mapping of the file 100 MB more.
TEST(HostileInput, MemoryThatRunsOutForOneFileIsThatFilesFinding) {
  TempDir t;
  const std::string tree = t / "tree";
  ASSERT_EQ(RunCommand("mkdir '" + tree +
                       "' && cp '" ROCM_AUDIT_HOSTILE_TREE "/tree/huge-needed/lib/libhuge.so' '" +
                       ROCM_AUDIT_HOSTILE_TREE "/shared/needed/libneeded-repeated-name.so' '" + tree + "'"),
            0);
  // Every limit ends in an exit status of its own, never an abort; where the run has room
  // for a report, the other file's findings are in it, and memory that ran out while libhuge
  // was audited is libhuge's finding. Which limits run out where depends on the machine's
  // allocator and loader configuration, so every limit from 150 to 400 MB is tried.
  for (long limit_mb = 150; limit_mb <= 400; limit_mb += 10) {
    auto r = RunBounded({"/usr/bin/prlimit", "--as=" + std::to_string(limit_mb << 20), ROCM_AUDIT_BINARY,
                         "--no-progress", "-j", "1", "--format", "json", tree},
                        t / "report.json", kQuickSeconds * 3);
    ASSERT_TRUE(r.exit_code >= 0 && r.exit_code <= 2)
        << "exit " << r.exit_code << " under " << limit_mb << " MB";
    if (r.exit_code == 2) continue;  // the run itself ran out: a tool error, still no abort
    nlohmann::json report = nlohmann::json::parse(r.output, nullptr, false);
    ASSERT_TRUE(report.is_object()) << r.output.substr(0, 400);
    EXPECT_EQ(ChecksOf(report, "libneeded-repeated-name.so"),
              (std::set<std::string>{"unresolved-library", "malformed-file"}));
    for (const auto& f : report["findings"])
      if (f.value("file", "") == "libhuge.so" &&
          f.value("message", "").find("memory ran out") != std::string::npos)
        EXPECT_EQ(f.value("check", ""), "malformed-file") << f.dump();
    RecordProperty("first_limit_with_a_report_mb", std::to_string(limit_mb));
    return;
  }
  ADD_FAILURE() << "no limit left room for the report";
}
#endif

// Sockets where the loader looks (a RUNPATH finds one, a DT_NEEDED names one by absolute
// path) are skipped as ld.so skips them, and an ld.so.conf include glob whose first match is
// a socket reads on: the last library is found in the directory the next file names.
TEST(HostileInput, SocketsWhereTheLoaderLooksAreSkippedNeverOpened) {
  TempDir t;
  nlohmann::json r = AuditQuickly("tree/sockets", "--root {tree}/tree/sockets", t);
  std::vector<std::string> sock = OutcomesFor(r, "libsock.so.1");
  ASSERT_FALSE(sock.empty());
  EXPECT_THAT(sock, ::testing::Contains("skipped: not a regular file (a socket)"));
  EXPECT_EQ(OutcomesFor(r, "/run/libabs.so.1"),
            std::vector<std::string>{"skipped: not a regular file (a socket)"});
  EXPECT_TRUE(OutcomesFor(r, "libglob.so.1").empty());  // found: no finding
  EXPECT_EQ(r["inputs"]["ld_so_conf_dirs"], nlohmann::json::array({"/opt/ok"}));
  EXPECT_EQ(ChecksOf(r), (std::set<std::string>{"special-file", "unresolved-library"}));
}

// 60 ld.so.conf.d files, each including the glob that matches them all and ld.so.conf:
// each file read once, as glibc reads it, and the directory the last one names is searched.
TEST(HostileInput, LdSoConfGlobFanOutIsReadOncePerFile) {
  TempDir t;
  double seconds = 0;
  nlohmann::json r = AuditQuickly("tree/conf-fan", "--root {tree}/tree/conf-fan", t, &seconds);
  EXPECT_EQ(r["inputs"]["ld_so_conf_dirs"], nlohmann::json::array({"/opt/found"}));
  EXPECT_TRUE(ChecksOf(r).empty());
  EXPECT_LT(seconds, 2.0);
}

// The findings of `report` with the run's own inputs left out: what must not depend on the
// order the packages were given in.
std::string FindingsOf(const nlohmann::json& report) {
  return report.value("findings", nlohmann::json()).dump();
}

// Headers that claim more than the file holds are the package's finding, with the reason
// libarchive gives; a member cut short is not installed, so no finding is about its first
// bytes as if they were a file (issue 33: "... is neither ELF nor a linker script").
TEST(HostileInput, ArchiveHeadersClaimingMoreThanTheFileAreRefused) {
  TempDir t;
  nlohmann::json ar = AuditQuickly("archives/ar-member-claims-10gb.deb", "", t);
  EXPECT_EQ(ChecksOf(ar), std::set<std::string>{"package-member-refused"});
  EXPECT_THAT(FindingsOf(ar), ::testing::HasSubstr("cannot be read past its last member"));
  EXPECT_THAT(FindingsOf(ar), ::testing::Not(::testing::HasSubstr("no data.tar member")));
  nlohmann::json tar = AuditQuickly("archives/tar-member-claims-1tb.deb", "", t);
  EXPECT_EQ(ChecksOf(tar), std::set<std::string>{"package-member-refused"});
  EXPECT_THAT(FindingsOf(tar), ::testing::HasSubstr("libbig.so.1"));
  for (const auto& f : tar["files"])
    EXPECT_THAT(f.value("path", ""), ::testing::Not(::testing::HasSubstr("libbig.so.1")));
}

// 50 tiny .debs whose libraries need each other in a ring, and each one library no package
// has: in every order given, the same findings byte for byte, no cap tripped, and only the
// 50 libraries that nothing provides unresolved.
TEST(HostileInput, FiftyDebsInAnyOrderGiveTheSameFindings) {
  std::vector<std::string> debs;
  for (const auto& e : fs::directory_iterator(ROCM_AUDIT_HOSTILE_TREE "/debs")) debs.push_back(e.path());
  std::sort(debs.begin(), debs.end());
  ASSERT_EQ(debs.size(), 50u);
  auto audit = [](const std::vector<std::string>& order) {
    TempDir t;
    std::vector<std::string> argv = {ROCM_AUDIT_BINARY, "--no-progress", "--format", "json"};
    argv.insert(argv.end(), order.begin(), order.end());
    rocm_audit::testing::Run r = RunBounded(argv, t / "report.json", kQuickSeconds * 3);
    EXPECT_EQ(r.exit_code, 1);
    return nlohmann::json::parse(r.output, nullptr, /*allow_exceptions=*/false);
  };
  const nlohmann::json forward = audit(debs);
  ASSERT_TRUE(forward.is_object());
  size_t unresolved = 0;
  for (const auto& f : forward["findings"]) {
    EXPECT_EQ(f.value("check", ""), "unresolved-library") << f.dump();
    EXPECT_THAT(f.value("library", ""), ::testing::StartsWith("libnothere"));
    ++unresolved;
  }
  EXPECT_EQ(unresolved, 50u);
  std::vector<std::string> reverse(debs.rbegin(), debs.rend()), rotated = debs;
  std::rotate(rotated.begin(), rotated.begin() + 17, rotated.end());
  EXPECT_EQ(FindingsOf(audit(reverse)), FindingsOf(forward));
  EXPECT_EQ(FindingsOf(audit(rotated)), FindingsOf(forward));
}

// Issue 47: an archive's members that are not ELF are counted and named, never parsed (LLVM's
// WebAssembly reader aborts the process on the first wasm member, reserves 2^32 entries for
// the second); the run ends with libuser.so's undefined symbol and the ELF member beside them
// that defines it.
TEST(HostileInput, ForeignArchiveMembersAreNamedNeverParsed) {
  const std::map<std::string, std::set<std::string>> formats = {
      {"wasm-leb-past-32-bits", {"wasm"}},
      {"wasm-2-32-types", {"wasm"}},
      {"coff-macho-bitcode", {"coff", "mach-o", "llvm-bitcode"}}};
  for (const auto& [name, expected] : formats) {
    TempDir t;
    const std::string archive =
        std::string(ROCM_AUDIT_HOSTILE_TREE) + "/archives47/foreign/" + name + "/lib/libhostile.a";
    nlohmann::json r = AuditQuickly("archives47/foreign/" + name, "", t);
    EXPECT_EQ(ChecksOf(r), std::set<std::string>{"undefined-symbol"}) << name;
    for (const auto& f : r.value("findings", nlohmann::json::array()))
      EXPECT_EQ(f["providers"],
                nlohmann::json::parse(R"([{"file": ")" + archive + R"(", "member": "provider.o"}])"))
          << name;
    std::set<std::string> seen;
    for (const auto& f : r["files"])
      if (f.value("path", "") == archive) {
        EXPECT_EQ(f["non_elf_members"].value("count", 0u), expected.size()) << name;
        for (const auto& m : f["non_elf_members"]["named"]) seen.insert(m.value("format", ""));
      }
    EXPECT_EQ(seen, expected) << name;
  }
}

// Issue 47: an ar table that lies is the archive's malformed-file, naming the lie as llvm-ar
// and GNU ar/ld name it, never an archive of fewer members; a valid thin archive is none.
TEST(HostileInput, LyingArTablesAreMalformedNamingTheLie) {
  const std::map<std::string, std::string> lies = {
      {"long-name-offset-past-table", "long name offset 4096 past the end of the string table"},
      {"name-table-unterminated", "string table at long name offset 0"},
      {"member-header-bad-terminator", "terminator characters in archive member"},
      {"member-size-past-end", "member provider.o runs past the end of the archive"},
      {"symtab-offset-past-end", "symbol table / entry 0 names member offset 2147483632, past the end"},
      {"symtab-count-past-table", "symbol table / claims 1073741824 entries"},
      {"sym64-offset-past-end",
       "symbol table /SYM64/ entry 0 names member offset 1099511627776, past the end"}};
  for (const auto& [name, lie] : lies) {
    TempDir t;
    const std::string archive =
        std::string(ROCM_AUDIT_HOSTILE_TREE) + "/archives47/lying/" + name + "/lib/libhostile.a";
    nlohmann::json r = AuditQuickly("archives47/lying/" + name, "", t);
    EXPECT_EQ(ChecksOf(r, archive), std::set<std::string>{"malformed-file"}) << name;
    for (const auto& f : r.value("findings", nlohmann::json::array()))
      if (f.value("file", "") == archive)
        EXPECT_THAT(f.value("reason", ""), ::testing::HasSubstr(lie)) << name;
    EXPECT_TRUE(ChecksOf(r).count("undefined-symbol")) << name;
  }
  TempDir t;
  nlohmann::json thin = AuditQuickly("archives47/lying/thin-valid", "", t);
  EXPECT_EQ(ChecksOf(thin), std::set<std::string>{"undefined-symbol"});
}

// --- unpack47: the verdicts of lying containers and of skipped members (issue 47).

// The findings of `check` about `file` (its path, with --absolute-paths), as "reason".
std::vector<std::string> ReasonsOf(const nlohmann::json& report, const std::string& check,
                                   const std::string& file) {
  std::vector<std::string> out;
  for (const auto& f : report.value("findings", nlohmann::json::array()))
    if (f.value("check", "") == check && f.value("file", "") == file)
      out.push_back(f["reason"].get<std::string>());
  return out;
}

TEST(HostileInput, LyingContainersAreNamedForWhatLies) {
  TempDir t;
  const std::string tree = std::string(ROCM_AUDIT_HOSTILE_TREE) + "/unpack47/";
  // Every lying RPM of the set is refused by what lies, none read as an empty package.
  std::string others;
  for (const auto& e : fs::directory_iterator(tree + "rpm"))
    if (e.path().filename() != "lead-cut.rpm") others += (others.empty() ? "" : " ") + e.path().string();
  nlohmann::json r = AuditQuickly("unpack47/rpm/lead-cut.rpm", others, t);
  size_t rpms = 0;
  for (const auto& e : fs::directory_iterator(tree + "rpm")) {
    ++rpms;
    std::vector<std::string> reasons = ReasonsOf(r, "package-member-refused", e.path().string());
    ASSERT_EQ(reasons.size(), 1u) << e.path();
    EXPECT_THAT(reasons[0], ::testing::StartsWith("not a readable RPM: ")) << e.path();
  }
  EXPECT_EQ(rpms, 7u);
  // 20,000 directory entries sharing one local entry: the zip is refused, naming two.
  r = AuditQuickly("unpack47/one-local-entry.zip", "", t);
  std::vector<std::string> reasons = ReasonsOf(r, "package-member-refused", tree + "one-local-entry.zip");
  ASSERT_EQ(reasons.size(), 1u);
  EXPECT_THAT(reasons[0], ::testing::HasSubstr("'f00000' and 'f00001' share the local entry at offset 0"));
  // The sparse member's offset is the reason, not the disk.
  r = AuditQuickly("unpack47/sparse-2-62.tar", "", t);
  reasons = ReasonsOf(r, "package-member-refused", tree + "sparse-2-62.tar");
  ASSERT_EQ(reasons.size(), 1u);
  EXPECT_THAT(reasons[0], ::testing::HasSubstr("a sparse member with data at offset 4611686018427387904"));
}

TEST(HostileInput, SkippedMembersStopAtTheRatioQuickly) {
  TempDir t;
  const std::string tree = std::string(ROCM_AUDIT_HOSTILE_TREE) + "/unpack47/";
  // Refused, then charged while skipped: 512 GiB of zeros stop at --max-ratio within the
  // quick bound.
  nlohmann::json r = AuditQuickly("unpack47/refused-member-512gib.tar.zst", "", t);
  EXPECT_EQ(ReasonsOf(r, "package-member-refused", tree + "refused-member-512gib.tar.zst"),
            std::vector<std::string>{"an absolute member name"});
  EXPECT_THAT(ReasonsOf(r, "package-limit", tree + "refused-member-512gib.tar.zst"),
              ::testing::ElementsAre(::testing::HasSubstr("(--max-ratio): a decompression bomb")));
  // The same member in a control archive, with a finding; the control file is read.
  r = AuditQuickly("unpack47/control-member-512gib.deb", "", t);
  EXPECT_THAT(ReasonsOf(r, "package-limit", tree + "control-member-512gib.deb"),
              ::testing::ElementsAre(::testing::HasSubstr("(--max-ratio)")));
  EXPECT_EQ(r["inputs"]["packages"][0]["name"], "bomb");
}

}  // namespace
}  // namespace rocm_audit::testing
