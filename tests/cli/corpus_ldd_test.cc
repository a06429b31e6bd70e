// Agreement with the real loader on Debian's ROCm packages (../shared/corpus/fetch.sh).
// Runs when the corpus is present ($CORPUS, default $HOME/rocm-corpus) and skips otherwise.
// The loader is the corpus's own ld.so (glibc of sid), run in trace mode by
// bench/compare_ldd.py on every x86-64 library and executable, with the same library
// path and no ld.so.cache on both sides.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>

#include "tests/support/audit_support.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

std::string SidRoot() { return CorpusRoot() + "/sid-root"; }

// Audits with `audit_args` (JSON into DIR/r.json), runs bench/compare_ldd.py with
// `compare_args` on the same files, and returns its figures; fails the test on any
// disagreement.
nlohmann::json AuditAndCompare(const TempDir& t, const std::string& audit_args,
                               const std::string& compare_args) {
  EXPECT_EQ(RunCommand(std::string(ROCM_AUDIT_BINARY) +
                       " --no-progress --format json --absolute-paths --fail-on none -o " + t / "r.json " +
                       audit_args),
            0);
  std::string out;
  int rc = RunCommand(
      "python3 " ROCM_AUDIT_FIXTURES_DIR "/../bench/compare_ldd.py " + t / "r.json " + compare_args + " 2>&1",
      &out);
  EXPECT_EQ(rc, 0) << out;
  auto stats = nlohmann::json::parse(out.substr(0, out.find("\n}\n") + 2), nullptr, false);
  EXPECT_FALSE(stats.is_discarded()) << out;
  if (stats.is_discarded()) return nlohmann::json::object();
  EXPECT_EQ(stats["files_agree"], stats["files"]) << out;
  return stats;
}

// The sid tree audited with its own ld.so's setup (library path, no ld.so.cache), compared
// with that ld.so file by file; `extra` are further rocm-audit options.
nlohmann::json CompareWithSidLoader(const TempDir& t, const std::string& root, const std::string& extra) {
  const std::string ld_so = root + "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2";
  const std::string lp = root + "/usr/lib/x86_64-linux-gnu:" + root + "/usr/lib";
  return AuditAndCompare(t, extra + " --ld-so-conf /nonexistent --library-path " + lp + " " + root,
                         "--ld-so " + ld_so + " --inhibit-cache --library-path " + lp);
}

bool HaveSid(const std::string& root) {
  struct stat st;
  return stat((root + "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2").c_str(), &st) == 0;
}

TEST(CorpusAgreesWithLdd, EveryX86FileHasTheLoadersVerdicts) {
  const std::string root = SidRoot();
  if (!HaveSid(root)) ROCM_AUDIT_SKIP_NO_CORPUS << "no corpus at " << root;
  TempDir t;
  EXPECT_GE(CompareWithSidLoader(t, root, "").value("files", 0), CorpusFloor(300, 40));
}

// Facts on demand: with only the loader's checks enabled, no device code is read (no file has
// bundles in the report) and the verdicts are the loader's all the same.
TEST(CorpusAgreesWithLdd, LoaderChecksAloneReadNoDeviceCodeAndAgree) {
  const std::string root = SidRoot();
  if (!HaveSid(root)) ROCM_AUDIT_SKIP_NO_CORPUS << "no corpus at " << root;
  TempDir t;
  auto stats = CompareWithSidLoader(
      t, root, "--enable 'undefined-symbol,missing-version,unresolved-library,rpath-*,mixed-soname'");
  EXPECT_GE(stats.value("files", 0), CorpusFloor(300, 40));
  const nlohmann::json report = nlohmann::json::parse(ReadAll(t / "r.json"));
  const nlohmann::json& files = report["files"];
  for (const auto& f : files) EXPECT_FALSE(f.contains("bundles")) << f["path"];
}

// --root against the real thing: the corpus's ld.so run inside chroot(2) of the corpus root
// (absolute RUNPATHs, ld.so.conf, default directories and absolute symlinks all inside it).
TEST(CorpusAgreesWithLdd, RootMatchesTheLoaderInsideAChroot) {
  std::string root = SidRoot();
  struct stat st;
  if (stat((root + "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2").c_str(), &st) != 0)
    ROCM_AUDIT_SKIP_NO_CORPUS << "no corpus at " << root;
  if (geteuid() != 0) ROCM_AUDIT_SKIP_NEEDS_ROOT << "chroot(2) needs root";
  TempDir t;
  auto stats =
      AuditAndCompare(t, "--root " + root + " " + root,
                      "--chroot " + root + " --ld-so /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2");
  EXPECT_GE(stats.value("files", 0), CorpusFloor(300, 40));
}

// The GLIBCXX case of the field reports: sid's ROCm libraries (built against glibc 2.43 and
// GCC 15's libstdc++) loaded with this machine's older C and C++ runtimes. Every sid library
// but the runtimes is offered on the library path; the host's own ld.so is the reference.
TEST(CorpusAgreesWithLdd, NewerRuntimeVersionsOnAnOlderSystem) {
  std::string root = SidRoot();
  std::string lib = root + "/usr/lib/x86_64-linux-gnu";
  struct stat st;
  if (stat((lib + "/libMIOpen.so.1").c_str(), &st) != 0) ROCM_AUDIT_SKIP_NO_CORPUS << "no corpus at " << root;
  TempDir t;
  ASSERT_TRUE(BuildTree(
      t.path(),
      "mkdir lp && for f in '" + lib +
          "'/*.so*; do b=${f##*/}; case $b in libc.so*|libm.so*|ld-linux*|"
          "libstdc++*|libgcc_s*|libpthread*|libdl.so*|librt.so*|libmvec*|libresolv*) continue;; esac; "
          "ln -s \"$f\" lp/\"$b\"; done\n"
          "find '" +
          root +
          "' -type f \\( -name '*.so*' -o -path '*/bin/*' \\) ! -name 'libc.so*' ! -name 'libm.so*' "
          "! -name 'ld-linux*' ! -name 'libstdc++*' ! -name 'libgcc_s*' > files"));
  std::string files;
  RunCommand("tr '\\n' ' ' < " + t / "files", &files);
  auto stats =
      AuditAndCompare(t, "--ld-so-conf /nonexistent --library-path " + t / "lp" + " " + files,
                      "--ld-so /lib64/ld-linux-x86-64.so.2 --inhibit-cache --library-path " + t / "lp");
  // On an older system than sid (Debian 12), this must exercise missing versions.
  EXPECT_GT(stats["versions"].value("both", 0), 0) << stats.dump();
}

// Issue 52, memory by need: the loader's checks over sid's tree hold the tables they bind
// against, not every table of every library they read. Each file's pages are given back
// after its checks (audit/elf/resident_pages.h): at most 64 MB of peak RSS, against 80 MB
// when they stayed. Counted by the kernel (ru_maxrss), not timed. AddressSanitizer's shadow
// and quarantine come on top.
TEST(CorpusLoaderMemory, LoaderChecksOverSidHoldAtMost64MB) {
  const std::string root = SidRoot();
  if (!HaveSid(root)) ROCM_AUDIT_SKIP_NO_CORPUS << "no corpus at " << root;
#ifdef ROCM_AUDIT_ASAN
  constexpr long kMaxRssMb = 1024;
#else
  constexpr long kMaxRssMb = 64;
#endif
  const std::string lp = root + "/usr/lib/x86_64-linux-gnu:" + root + "/usr/lib";
  const pid_t pid = fork();
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    execl(ROCM_AUDIT_BINARY, ROCM_AUDIT_BINARY, "--no-progress", "--format", "json", "--fail-on", "none",
          "--ld-so-conf", "/nonexistent", "--library-path", lp.c_str(), "--enable",
          "undefined-symbol,missing-version,unresolved-library,rpath-*,mixed-soname", root.c_str(),
          static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  ASSERT_EQ(wait4(pid, &status, 0, &usage), pid);
  ASSERT_TRUE(WIFEXITED(status)) << status;
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_LE(usage.ru_maxrss / 1024, kMaxRssMb);
}

}  // namespace
}  // namespace rocm_audit::testing
