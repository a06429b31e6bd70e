// Agreement with CMake itself, stage by stage: for each package, a throw-away project calls
// find_package(<Name> CONFIG REQUIRED) with Debian's real cmake (configure), links a probe
// against every imported target it gets (generate), and builds the probes (build). CMake
// must fail exactly when rocm-audit reports an error-level CMake finding for the package
// (or a missing required dependency, which CMake reports as the package not being found),
// and at the stage the earliest such finding names in its cmake_stage field. The corpus's
// packages (when $CORPUS is present) are configured and generated only, as their targets
// need a HIP compiler to build.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/support/test_support.h"

namespace rocm_audit {
namespace {

using testing::RunCommand;

struct Verdict {
  std::string package;
  std::string component;  ///< the consumer asks for this component; "" for none
  bool audit_fails = false;
  bool cmake_fails = false;
  std::string audit_stage;  ///< the earliest cmake_stage of its error-level findings
  std::string cmake_stage;  ///< where CMake failed: configure, generate or build
  std::string cmake_output;
};

int StageOrder(const std::string& stage) {
  return stage == "configure" ? 0 : stage == "generate" ? 1 : stage == "build" ? 2 : 3;
}

void NoteStage(Verdict& v, const std::string& stage) {
  if (v.audit_stage.empty() || StageOrder(stage) < StageOrder(v.audit_stage)) v.audit_stage = stage;
}

std::string Quote(const std::string& s) { return "'" + s + "'"; }

std::string JoinWords(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

// rocm-audit's verdict per package config under `path`, for a consumer that asks for no
// component (key: the config) and, where that one passes, for one that asks for each
// component the package offers (key: "<config> COMPONENTS <component>"): those fail
// exactly on the findings that name their component. The consumer's machine is this one, as
// the probe's: `--root /` (CMake's own Find modules evaluated against it).
std::map<std::string, Verdict> AuditVerdicts(const std::string& path, const std::string& prefix) {
  std::string json;
  RunCommand(std::string(ROCM_AUDIT_BINARY) + " " + Quote(path) + " --cmake-prefix-path " + Quote(prefix) +
                 " --root / --format json --fail-on none -q -j 2",
             &json);
  auto report = nlohmann::json::parse(json);
  std::map<std::string, Verdict> out;
  std::map<std::string, std::vector<std::string>> components;
  for (const auto& f : report["files"])
    if (f.contains("cmake")) {
      out[f["path"]].package = f["cmake"]["package"];
      components[f["path"]] = f["cmake"].value("components", std::vector<std::string>{});
    }
  std::map<std::string, Verdict> asking;
  for (const auto& f : report["findings"]) {
    std::string check = f["check"];
    if (!out.count(f["file"])) continue;
    bool error = check.starts_with("cmake-") && f["severity"] == "error";
    bool dependency = check == "cmake-missing-dependency" && f["severity"] == "warning";
    if (!error && !dependency) continue;
    std::string key = f["file"];
    if (f.contains("asked_component")) key += " COMPONENTS " + f["asked_component"].get<std::string>();
    Verdict& v = asking[key];
    v.audit_fails = true;
    NoteStage(v, f.value("cmake_stage", "configure"));
  }
  for (auto& [config, v] : out) {
    if (asking.count(config)) {
      v.audit_fails = true;
      v.audit_stage = asking[config].audit_stage;
      continue;  // what else a component brings is not known from the report
    }
    for (const std::string& c : components[config]) {
      Verdict with = asking[config + " COMPONENTS " + c];
      with.package = v.package;
      with.component = c;
      asking[config + " COMPONENTS " + c] = with;
    }
  }
  for (auto& [key, v] : asking)
    if (!v.component.empty()) out[key] = v;
  return out;
}

// CMake's verdict: configure and generate (and build, when `build`) a probe project; the
// stage that failed, "" when none did.
std::string CMakeFailsAt(const std::string& package, const std::string& prefix, bool build,
                         std::string* output, const std::string& defines = "",
                         const std::string& component = "") {
  std::string dir = ::testing::TempDir() + "/rocm-audit-probe-" + std::to_string(getpid()) + "-" + package;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  testing::WriteAll(dir + "/probe.c", "int main(void) { return 0; }\n");
  testing::WriteAll(dir + "/CMakeLists.txt",
                    "cmake_minimum_required(VERSION 3.25)\n"
                    "project(probe LANGUAGES C CXX)\n"
                    "find_package(" +
                        package + " CONFIG REQUIRED" + (component.empty() ? "" : " COMPONENTS " + component) +
                        ")\n"
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
  std::string stage;
  if (RunCommand(cmd, output) != 0) {
    // CMake prints "-- Configuring done" before it generates, and only when configure passed.
    stage = output->find("-- Configuring done") == std::string::npos ? "configure" : "generate";
  } else if (build) {
    std::string built;
    if (RunCommand("cd " + Quote(dir) + " && " + cmake + " --build build 2>&1", &built) != 0) stage = "build";
    *output += built;
  }
  std::filesystem::remove_all(dir);
  return stage;
}

TEST(CMakeAgreement, FixturePackages) {
  size_t compared = 0, failing = 0;
  std::map<std::string, size_t> by_stage;
  for (const auto& entry : std::filesystem::directory_iterator(ROCM_AUDIT_CMAKE_TREE)) {
    if (!entry.is_directory()) continue;
    for (auto& [config, v] : AuditVerdicts(entry.path().string(), entry.path().string())) {
      v.cmake_stage = CMakeFailsAt(v.package, entry.path().string(), true, &v.cmake_output, "", v.component);
      v.cmake_fails = !v.cmake_stage.empty();
      EXPECT_EQ(v.audit_fails, v.cmake_fails)
          << entry.path().filename().string() << (v.component.empty() ? "" : " COMPONENTS " + v.component)
          << ": rocm-audit " << (v.audit_fails ? "fails" : "passes") << ", cmake "
          << (v.cmake_fails ? "fails" : "passes") << ":\n"
          << v.cmake_output;
      EXPECT_EQ(v.audit_stage, v.cmake_stage) << entry.path().filename().string() << " (" << v.package << " "
                                              << v.component << "): the stage rocm-audit names, and "
                                              << "where cmake failed:\n"
                                              << v.cmake_output;
      failing += v.cmake_fails;
      ++by_stage[v.cmake_stage.empty() ? "passes" : v.cmake_stage];
      ++compared;
    }
  }
  // 36 prefixes; the gadget cases (and ck-asked-dep-version, ck-asked-dep-ok, the two
  // widget-asked-dep-twice ones and widget-asked-dep-link-found) hold two packages each; ck-ok, ck-asked-ok,
  // ck-asked-no-conv and the three ck-asked-dep ones are also asked for each of their 3 components, and
  // widget-asked-dep-twice for extras (the other widget-asked-dep ones fail without it).
  // The hand-written ones: omp-component-ok, in-list-quoted-ok and consumer-dir-ok one
  // config each, dep-lib64-version three, dep-nested-prefix-ok, dep-no-default-path,
  // dep-chain-missing, dep-chain-broken and ns-partly-missing two each; cups-property-read
  // one, which fails at generate on a machine without CUPS's header and library.
  const size_t without_cups = std::filesystem::exists("/usr/include/cups/cups.h") ? 0 : 1;
  EXPECT_EQ(compared, 82u);
  EXPECT_EQ(failing, 30u + without_cups);
  // configure: no-targets, no-library, no-includedir, missing-dep, ck-no-conv, dep-version,
  // dep-exact, dep-no-version-file, dotdot, ck-asked-no-conv COMPONENTS
  // device_conv_operations, found-false, linked-config, ck-asked-dep-missing and
  // ck-asked-dep-version COMPONENTS device_conv_operations, widget-asked-dep-twice COMPONENTS
  // extras, widget-asked-dep-twice-reverse, Uses of dep-lib64-version and of
  // dep-no-default-path, Top and Mid of dep-chain-missing, Top and Widget of dep-chain-broken;
  // generate: rocm-style (an include
  // directory that does not exist), link-missing, no-locations, staged,
  // widget-asked-dep-link-missing, widget-asked-dep-namespace and widget-asked-dep-link-found
  // (a target only extras's dependency defines), Kf of ns-partly-missing, and
  // cups-property-read where CMake's FindCups finds no CUPS.
  EXPECT_EQ(by_stage["configure"], 22u);
  EXPECT_EQ(by_stage["generate"], 8u + without_cups);
  EXPECT_EQ(by_stage["build"], 0u);
  for (const auto& [stage, n] : by_stage) printf("fixtures: %s %zu\n", stage.c_str(), n);
}

// On the corpus, CMake runs in this machine's environment: hip-config.cmake asks the
// installed hipconfig for the platform (given here as -DHIP_PLATFORM=amd, what it answers on
// a ROCm system) and hip-lang-config.cmake asks the HIP compiler for its runtime. A failure
// of CMake at a line where rocm-audit reports a note (a branch it cannot decide without
// running those) is counted apart, not as a disagreement.
// Whether CMake's first error is at a line of a list file that needs the consumer's HIP
// compiler (CMAKE_HIP_COMPILER, set only by enable_language(HIP)), which the probe, like
// this machine, does not have.
bool FailsForWantOfHipCompiler(const std::string& output) {
  const std::string marker = "CMake Error at ";
  size_t at = output.find(marker);
  if (at == std::string::npos) return false;
  size_t end = output.find(" (", at);
  std::string site = output.substr(at + marker.size(), end - at - marker.size());
  size_t colon = site.rfind(':');
  if (colon == std::string::npos) return false;
  std::ifstream in(site.substr(0, colon));
  int line = std::atoi(site.c_str() + colon + 1);
  std::string text;
  for (int k = 0; k < line && std::getline(in, text); ++k) {}
  return text.find("CMAKE_HIP_COMPILER") != std::string::npos;
}

void CompareCorpusTree(const std::string& root, const std::vector<std::string>& config_dirs,
                       size_t at_least) {
  std::vector<std::string> dirs;
  for (const std::string& dir : config_dirs) {
    struct stat st;
    if (stat((root + dir).c_str(), &st) == 0) dirs.push_back(Quote(root + dir));
  }
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
    if (!check.starts_with("cmake-") || f.contains("asked_component")) continue;
    // As AuditVerdicts: a dependency found in no prefix is a warning (the consumer may have
    // it elsewhere), and fails the probe, whose prefix is the audit's.
    if (f["severity"] == "error" || (check == "cmake-missing-dependency" && f["severity"] == "warning")) {
      verdicts[f["file"]].audit_fails = true;
      NoteStage(verdicts[f["file"]], f.value("cmake_stage", "configure"));
    }
    if (f["severity"] == "note" && f.contains("in"))
      note_sites.insert(f["in"].get<std::string>() + ":" + std::to_string(f["line"].get<int>()));
  }
  size_t agree = 0, undecided = 0, failing = 0, no_hip_compiler = 0;
  for (auto& [config, v] : verdicts) {
    v.cmake_stage = CMakeFailsAt(v.package, root + "/usr", false, &v.cmake_output, "-DHIP_PLATFORM=amd");
    v.cmake_fails = !v.cmake_stage.empty();
    failing += v.cmake_fails;
    // A package CMake does not find from this prefix (AMDDeviceLibs lives under llvm-21) fails
    // for that reason alone: its stage says nothing.
    const bool not_found_here =
        v.cmake_output.find("Could not find a package configuration file provided by \"" + v.package +
                            "\"") != std::string::npos;
    if (v.audit_fails == v.cmake_fails) {
      if (!not_found_here)
        EXPECT_EQ(v.audit_stage, v.cmake_stage)
            << v.package << " (" << config << "): the stage rocm-audit names, "
            << "and where cmake failed:\n"
            << v.cmake_output;
      ++agree;
      continue;
    }
    bool at_note = false;
    for (const std::string& site : note_sites) at_note |= v.cmake_output.find(site) != std::string::npos;
    if (v.cmake_fails && at_note) {
      ++undecided;
      continue;
    }
    if (v.cmake_fails && FailsForWantOfHipCompiler(v.cmake_output)) {
      ++no_hip_compiler;
      printf("needs the HIP compiler, not counted: %s\n", v.package.c_str());
      continue;
    }
    ADD_FAILURE() << v.package << " (" << config << "): rocm-audit " << (v.audit_fails ? "fails" : "passes")
                  << " it, cmake " << (v.cmake_fails ? "fails" : "passes") << ":\n"
                  << v.cmake_output;
  }
  EXPECT_GE(verdicts.size(), at_least);
  printf(
      "%s: %zu packages, cmake fails %zu; agree %zu, cmake fails at an undecided site %zu, for want of the "
      "HIP compiler %zu\n",
      root.c_str(), verdicts.size(), failing, agree, undecided, no_hip_compiler);
}

TEST(CMakeAgreement, CorpusPackages) {
  std::string root = testing::CorpusRoot() + "/sid-root";
  struct stat st;
  if (stat((root + "/usr/lib/x86_64-linux-gnu/cmake").c_str(), &st) != 0)
    ROCM_AUDIT_SKIP_NO_CORPUS << "no corpus at " << root;
  CompareCorpusTree(root,
                    {"/usr/lib/x86_64-linux-gnu/cmake", "/usr/share/cmake", "/usr/share/rocm/cmake",
                     "/usr/share/rocmcmakebuildtools/cmake", "/usr/lib/llvm-21/lib/cmake/AMDDeviceLibs"},
                    testing::CorpusFloor(28, 10));
}

// Bookworm's ROCm 5.x configs, against the same cmake.
TEST(CMakeAgreement, CorpusBookwormPackages) {
  std::string root = testing::CorpusRoot() + "/bookworm-root";
  struct stat st;
  if (stat((root + "/usr/lib/x86_64-linux-gnu/cmake").c_str(), &st) != 0)
    ROCM_AUDIT_SKIP_NO_CORPUS << "no corpus at " << root;
  CompareCorpusTree(root, {"/usr/lib/x86_64-linux-gnu/cmake", "/usr/share/cmake"},
                    testing::CorpusFloor(8, 6));
}

}  // namespace
}  // namespace rocm_audit
