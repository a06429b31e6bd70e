// Agreement with CMake itself: for each package, a throw-away project calls
// find_package(<Name> CONFIG REQUIRED) with Debian's real cmake and links a probe against
// every imported target it gets. CMake must fail exactly when rocm-audit reports an
// error-level CMake finding for the package (or a missing required dependency, which
// CMake reports as the package not being found). The fixture packages are also built, so
// that a missing library CMake does not check at configure time still counts; the corpus's
// packages (when $CORPUS is present) are configured and generated only, as their targets
// need a HIP compiler to build.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/support/test_support.h"

namespace rocm_audit {
namespace {

using testing::RunCommand;

struct Verdict {
  std::string package;
  bool audit_fails = false;
  bool cmake_fails = false;
  std::string cmake_output;
};

std::string Quote(const std::string& s) { return "'" + s + "'"; }

std::string JoinWords(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

// rocm-audit's verdict per package config under `path`.
std::map<std::string, Verdict> AuditVerdicts(const std::string& path, const std::string& prefix) {
  std::string json;
  RunCommand(std::string(ROCM_AUDIT_BINARY) + " " + Quote(path) + " --cmake-prefix-path " + Quote(prefix) +
                 " --format json --fail-on none -q -j 2",
             &json);
  auto report = nlohmann::json::parse(json);
  std::map<std::string, Verdict> out;
  for (const auto& f : report["files"])
    if (f.contains("cmake")) out[f["path"]].package = f["cmake"]["package"];
  for (const auto& f : report["findings"]) {
    std::string check = f["check"];
    if (!out.count(f["file"])) continue;
    bool error = check.starts_with("cmake-") && f["severity"] == "error";
    bool dependency = check == "cmake-missing-dependency" && f["severity"] == "warning";
    if (error || dependency) out[f["file"]].audit_fails = true;
  }
  return out;
}

// CMake's verdict: configure and generate (and build, when `build`) a probe project.
bool CMakeFails(const std::string& package, const std::string& prefix, bool build, std::string* output,
                const std::string& defines = "") {
  std::string dir = ::testing::TempDir() + "/rocm-audit-probe-" + std::to_string(getpid()) + "-" + package;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  testing::WriteAll(dir + "/probe.c", "int main(void) { return 0; }\n");
  testing::WriteAll(dir + "/CMakeLists.txt",
                    "cmake_minimum_required(VERSION 3.25)\n"
                    "project(probe LANGUAGES C)\n"
                    "find_package(" +
                        package +
                        " CONFIG REQUIRED)\n"
                        "get_directory_property(targets IMPORTED_TARGETS)\n"
                        "foreach(t IN LISTS targets)\n"
                        "  get_target_property(type ${t} TYPE)\n"
                        "  string(MAKE_C_IDENTIFIER \"${t}\" id)\n"
                        "  add_executable(probe_${id} probe.c)\n"
                        "  target_link_libraries(probe_${id} PRIVATE ${t})\n"
                        "endforeach()\n");
  std::string cmake = Quote(ROCM_AUDIT_CMAKE_COMMAND);
  std::string make_program = std::string(ROCM_AUDIT_CMAKE_MAKE_PROGRAM).empty()
                                 ? ""
                                 : " -DCMAKE_MAKE_PROGRAM=" + Quote(ROCM_AUDIT_CMAKE_MAKE_PROGRAM);
  std::string cmd = "cd " + Quote(dir) + " && " + cmake + " -G " + Quote(ROCM_AUDIT_CMAKE_GENERATOR) +
                    make_program + " -S . -B build -DCMAKE_PREFIX_PATH=" + Quote(prefix) + " " + defines +
                    " 2>&1";
  if (build) cmd += " && " + cmake + " --build build 2>&1";
  int rc = RunCommand(cmd, output);
  std::filesystem::remove_all(dir);
  return rc != 0;
}

TEST(CMakeAgreement, FixturePackages) {
  size_t compared = 0, failing = 0;
  for (const auto& entry : std::filesystem::directory_iterator(ROCM_AUDIT_CMAKE_TREE)) {
    if (!entry.is_directory()) continue;
    for (auto& [config, v] : AuditVerdicts(entry.path().string(), entry.path().string())) {
      v.cmake_fails = CMakeFails(v.package, entry.path().string(), true, &v.cmake_output);
      EXPECT_EQ(v.audit_fails, v.cmake_fails)
          << entry.path().filename().string() << ": rocm-audit " << (v.audit_fails ? "fails" : "passes")
          << ", cmake " << (v.cmake_fails ? "fails" : "passes") << ":\n"
          << v.cmake_output;
      failing += v.cmake_fails;
      ++compared;
    }
  }
  EXPECT_EQ(compared, 10u);
  EXPECT_EQ(failing, 6u);  // no-targets, no-library, no-includedir, missing-dep, ck-no-conv, rocm-style
}

// On the corpus, CMake runs in this machine's environment: hip-config.cmake asks the
// installed hipconfig for the platform (given here as -DHIP_PLATFORM=amd, what it answers on
// a ROCm system) and hip-lang-config.cmake asks the HIP compiler for its runtime. A failure
// of CMake at a line where rocm-audit reports a note (a branch it cannot decide without
// running those) is counted apart, not as a disagreement.
TEST(CMakeAgreement, CorpusPackages) {
  std::string root = testing::CorpusRoot() + "/sid-root";
  struct stat st;
  if (stat((root + "/usr/lib/x86_64-linux-gnu/cmake").c_str(), &st) != 0)
    GTEST_SKIP() << "no corpus at " << root;
  std::vector<std::string> dirs;
  for (const char* dir : {"/usr/lib/x86_64-linux-gnu/cmake", "/usr/share/cmake", "/usr/share/rocm/cmake",
                          "/usr/share/rocmcmakebuildtools/cmake", "/usr/lib/llvm-21/lib/cmake/AMDDeviceLibs"})
    dirs.push_back(Quote(root + dir));
  std::string json;
  RunCommand(std::string(ROCM_AUDIT_BINARY) + " " + JoinWords(dirs) + " --cmake-prefix-path " +
                 Quote(root + "/usr") + " --format json --fail-on none -q -j 2",
             &json);
  auto report = nlohmann::json::parse(json);
  std::map<std::string, Verdict> verdicts;
  std::set<std::string> note_sites;  // "file:line" of undecided CMake findings
  for (const auto& f : report["files"])
    if (f.contains("cmake")) verdicts[f["path"]].package = f["cmake"]["package"];
  for (const auto& f : report["findings"]) {
    std::string check = f["check"];
    if (!check.starts_with("cmake-")) continue;
    if (f["severity"] == "error") verdicts[f["file"]].audit_fails = true;
    if (f["severity"] == "note" && f.contains("in"))
      note_sites.insert(f["in"].get<std::string>() + ":" + std::to_string(f["line"].get<int>()));
  }
  size_t agree = 0, undecided = 0, failing = 0, link_interface = 0;
  for (auto& [config, v] : verdicts) {
    v.cmake_fails = CMakeFails(v.package, root + "/usr", false, &v.cmake_output, "-DHIP_PLATFORM=amd");
    failing += v.cmake_fails;
    if (v.audit_fails == v.cmake_fails) {
      ++agree;
      continue;
    }
    bool at_note = false;
    for (const std::string& site : note_sites) at_note |= v.cmake_output.find(site) != std::string::npos;
    if (v.cmake_fails && at_note) {
      ++undecided;
      continue;
    }
    // Not checked yet: a link interface naming another package's target (hip::host) that
    // the package's dependencies do not define. Counted and shown, so the gap stays visible.
    if (v.cmake_fails && v.cmake_output.find("but the target was not found") != std::string::npos) {
      ++link_interface;
      printf("not checked yet (link interface target): %s\n", v.package.c_str());
      continue;
    }
    ADD_FAILURE() << v.package << " (" << config << "): rocm-audit " << (v.audit_fails ? "fails" : "passes")
                  << " it, cmake " << (v.cmake_fails ? "fails" : "passes") << ":\n"
                  << v.cmake_output;
  }
  EXPECT_GE(verdicts.size(), 28u);
  printf(
      "corpus: %zu packages, cmake fails %zu; agree %zu, cmake fails at an undecided site %zu, "
      "link-interface targets not checked %zu\n",
      verdicts.size(), failing, agree, undecided, link_interface);
}

}  // namespace
}  // namespace rocm_audit
