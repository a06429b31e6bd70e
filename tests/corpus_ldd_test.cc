// Agreement with the real loader on Debian's ROCm packages (../shared/corpus/fetch.sh).
// Runs when the corpus is present ($CORPUS, default $HOME/rocm-corpus) and skips otherwise.
// The loader is the corpus's own ld.so (glibc of sid), run in trace mode by
// bench/compare_ldd.py on every x86-64 library and executable, with the same library
// path and no ld.so.cache on both sides.
#include <gtest/gtest.h>
#include <sys/stat.h>

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

}  // namespace
}  // namespace rocm_audit::testing
