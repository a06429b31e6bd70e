// Agreement with the real loader on Debian's ROCm packages (../shared/corpus/fetch.sh).
// Runs when the corpus is present ($CORPUS, default $HOME/rocm-corpus) and skips otherwise.
// The loader is the corpus's own ld.so (glibc of sid), run in trace mode by
// bench/compare_ldd.py on every x86-64 library and executable, with the same library
// path and no ld.so.cache on both sides.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>

#include "tests/test_support.h"

namespace rocm_audit::testing {
namespace {

std::string CorpusRoot() {
  const char* env = std::getenv("CORPUS");
  std::string corpus = env ? env : std::string(std::getenv("HOME") ? std::getenv("HOME") : "/root") + "/rocm-corpus";
  return corpus + "/sid-root";
}

TEST(CorpusAgreesWithLdd, EveryX86FileHasTheLoadersVerdicts) {
  std::string root = CorpusRoot();
  std::string ld_so = root + "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2";
  struct stat st;
  if (stat(ld_so.c_str(), &st) != 0) GTEST_SKIP() << "no corpus at " << root;
  if (!HaveTool("python3")) GTEST_SKIP() << "python3 not installed";
  TempDir t;
  std::string lp = root + "/usr/lib/x86_64-linux-gnu:" + root + "/usr/lib";
  ASSERT_EQ(RunCommand(std::string(ROCM_AUDIT_BINARY) + " --no-progress --format json --fail-on none "
                       "--ld-so-conf /nonexistent --library-path " + lp + " -o " + t / "r.json " + root), 0);
  std::string out;
  int rc = RunCommand("python3 " ROCM_AUDIT_FIXTURES_DIR "/../bench/compare_ldd.py " + t / "r.json" +
                      " --ld-so " + ld_so + " --inhibit-cache --library-path " + lp + " 2>&1", &out);
  EXPECT_EQ(rc, 0) << out;
  auto stats = nlohmann::json::parse(out.substr(0, out.find("\n}\n") + 2));
  EXPECT_GE(stats["files"].get<int>(), 300) << out;
  EXPECT_EQ(stats["files_agree"], stats["files"]) << out;
}

// --root against the real thing: the corpus's ld.so run inside chroot(2) of the corpus root
// (absolute RUNPATHs, ld.so.conf, default directories and absolute symlinks all inside it).
TEST(CorpusAgreesWithLdd, RootMatchesTheLoaderInsideAChroot) {
  std::string root = CorpusRoot();
  struct stat st;
  if (stat((root + "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2").c_str(), &st) != 0)
    GTEST_SKIP() << "no corpus at " << root;
  if (geteuid() != 0) GTEST_SKIP() << "chroot(2) needs root";
  if (!HaveTool("python3")) GTEST_SKIP() << "python3 not installed";
  TempDir t;
  ASSERT_EQ(RunCommand(std::string(ROCM_AUDIT_BINARY) + " --no-progress --format json --fail-on none --root " +
                       root + " -o " + t / "r.json " + root), 0);
  std::string out;
  int rc = RunCommand("python3 " ROCM_AUDIT_FIXTURES_DIR "/../bench/compare_ldd.py " + t / "r.json" +
                      " --chroot " + root + " --ld-so /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 2>&1", &out);
  EXPECT_EQ(rc, 0) << out;
  auto stats = nlohmann::json::parse(out.substr(0, out.find("\n}\n") + 2));
  EXPECT_GE(stats["files"].get<int>(), 300) << out;
  EXPECT_EQ(stats["files_agree"], stats["files"]) << out;
}

// The GLIBCXX case of the field reports: sid's ROCm libraries (built against glibc 2.43 and
// GCC 15's libstdc++) loaded with this machine's older C and C++ runtimes. Every sid library
// but the runtimes is offered on the library path; the host's own ld.so is the reference.
TEST(CorpusAgreesWithLdd, NewerRuntimeVersionsOnAnOlderSystem) {
  std::string root = CorpusRoot();
  std::string lib = root + "/usr/lib/x86_64-linux-gnu";
  struct stat st;
  if (stat((lib + "/libMIOpen.so.1").c_str(), &st) != 0) GTEST_SKIP() << "no corpus at " << root;
  if (!HaveTool("python3")) GTEST_SKIP() << "python3 not installed";
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
      "mkdir lp && for f in '" + lib + "'/*.so*; do b=${f##*/}; case $b in libc.so*|libm.so*|ld-linux*|"
      "libstdc++*|libgcc_s*|libpthread*|libdl.so*|librt.so*|libmvec*|libresolv*) continue;; esac; "
      "ln -s \"$f\" lp/\"$b\"; done\n"
      "find '" + root + "' -type f \\( -name '*.so*' -o -path '*/bin/*' \\) ! -name 'libc.so*' ! -name 'libm.so*' "
      "! -name 'ld-linux*' ! -name 'libstdc++*' ! -name 'libgcc_s*' > files"));
  ASSERT_EQ(RunCommand("xargs -a " + t / "files" + " -d '\\n' " ROCM_AUDIT_BINARY " --no-progress --format json "
                       "--fail-on none --ld-so-conf /nonexistent --library-path " + t / "lp" + " -o " + t / "r.json"), 0);
  std::string out;
  int rc = RunCommand("python3 " ROCM_AUDIT_FIXTURES_DIR "/../bench/compare_ldd.py " + t / "r.json" +
                      " --ld-so /lib64/ld-linux-x86-64.so.2 --inhibit-cache --library-path " + t / "lp" + " 2>&1", &out);
  EXPECT_EQ(rc, 0) << out;
  auto stats = nlohmann::json::parse(out.substr(0, out.find("\n}\n") + 2));
  EXPECT_EQ(stats["files_agree"], stats["files"]) << out;
  // On an older system than sid (Debian 12), this must exercise missing versions.
  EXPECT_GT(stats["versions"]["both"].get<int>(), 0) << out;
}

}  // namespace
}  // namespace rocm_audit::testing
