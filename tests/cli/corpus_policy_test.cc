// On Debian's real ROCm packages (the corpus, when present): the first screen of the text
// report names every distinct defect of the sid tree, and a packager's gate adopted with a
// waiver and a baseline fails only for what is new.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;

const std::string kBin = std::string(ROCM_AUDIT_BINARY) + " --no-progress ";

std::string SidRoot() { return CorpusRoot() + "/sid-root"; }

bool HaveCorpus() {
  struct stat st;
  return stat((SidRoot() + "/usr/lib/x86_64-linux-gnu").c_str(), &st) == 0;
}

std::string SidAudit(const std::string& options, int* status = nullptr) {
  std::string out;
  int rc = RunCommand(kBin + options + " --root " + SidRoot() + " " + SidRoot(), &out);
  if (status) *status = rc;
  return out;
}

TEST(CorpusPolicy, TheFirstScreenNamesEveryDistinctDefect) {
  if (!HaveCorpus()) ROCM_AUDIT_SKIP_NO_CORPUS << "no corpus at " << SidRoot();
  ROCM_AUDIT_SKIP_ON_CORPUS_SLICE;
  std::istringstream text(SidAudit(""));
  std::string first, line;
  for (int i = 0; i < 25 && std::getline(text, line); ++i) first += line + "\n";
  // Each defect found on this tree (docs/benchmarks.md, "CMake package configs"; the loader's verdicts).
  for (const char* defect :
       {"AMDDeviceLibs: 71 IMPORTED_LOCATION files not installed, under /usr/lib/amdgcn/bitcode",
        "libgcc_s.so.1 not found, needed by 40 files", "libz.so.1 not found", "libffi.so.8 not found",
        "libtinfo.so.6 not found", "libbz2.so.1.0 not found", "libmd.so.0 not found",
        "liblzma.so.5 not found", "in libthread_db.so.1", "origami: 1 include files not installed",
        "rocm_smi:", "/usr/{OAM_NAME}", "librocblas.so.4.4 lacks", "libmigraphx_device.so",
        "two majors of libamdhip64", "two majors of libxml2", "dangling symlinks", "[rpath-missing-dir]"})
    EXPECT_THAT(first, HasSubstr(defect)) << defect << "\n" << first;
}

TEST(CorpusPolicy, WaiversAndABaselineGateOnlyWhatIsNew) {
  if (!HaveCorpus()) ROCM_AUDIT_SKIP_NO_CORPUS << "no corpus at " << SidRoot();
  TempDir t;
  WriteAll(t / "waivers",
           "undefined-symbol usr/lib/*/libthread_db.so* ps_* # gdb provides the ps_* callbacks\n");
  int status = 0;
  auto waived = nlohmann::json::parse(SidAudit("--suppress " + t / "waivers --format json", &status));
  EXPECT_EQ(status, 1);  // the other defects remain
  EXPECT_EQ(waived["summary"]["suppressed"]["waiver"], 8);
  EXPECT_EQ(waived["summary"]["by_check"].value("undefined-symbol", 0), 0);
  EXPECT_GT(waived["summary"]["by_severity"]["error"], 0);

  // Today's findings as the baseline: the gate passes, then fails again for a planted defect.
  SidAudit("--format json -o " + t / "base.json");
  EXPECT_EQ(RunCommand(kBin + "--baseline " + t / "base.json --root " + SidRoot() + " " + SidRoot()), 0);
  ASSERT_TRUE(BuildTree(t.path(),
                        "mklib dep/libgone.so.9 libgone.so.9 'int g(void) { return 1; }'\n"
                        "mklib new/lib/libnew.so.1 libnew.so.1 'int g(void); int f(void) { return g(); }' "
                        "-Ldep -l:libgone.so.9\n"
                        "rm -r dep\n"));
  std::string out;
  EXPECT_EQ(RunCommand(kBin + "--baseline " + t / "base.json --format json --root " + SidRoot() + " " +
                           SidRoot() + " " + t / "new",
                       &out),
            1);
  auto planted = nlohmann::json::parse(out);
  EXPECT_EQ(planted["summary"]["findings"], 1);
  for (const auto& f : planted["findings"])
    if (!f.contains("suppressed"))
      EXPECT_EQ(f["file"], "new/lib/libnew.so.1");  // below its PATH, named by it
}

}  // namespace
}  // namespace rocm_audit::testing
