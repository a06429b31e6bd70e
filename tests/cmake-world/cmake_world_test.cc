// Agreement with CMake on real package configs outside ROCm: every config below /usr/lib
// and /usr/share but CMake's own and ROCm's, with the Debian -dev packages of
// tests/cmake-world/packages.txt installed (install.sh; what else is installed counts too),
// each probed by the build's cmake at three stages as tests/cli/cmake_agreement_test.cc probes ROCm's:
// find_package(<Name> CONFIG REQUIRED) (configure), a probe linked against every imported
// target it brings (generate), and those probes built (build, which opens every imported
// file). rocm-audit must fail a package exactly when CMake does, at the same stage, except
// where expectations.txt names the package with both verdicts and the CMake behaviour that
// causes the difference. It runs when the packages are installed, and skips otherwise.
// A second world is a Debian 13 root (tests/cmake-world/make_root.sh: debootstrap and the
// -dev packages of packages-trixie.txt), audited with --root and probed inside it, by
// chroot(2), with its own CMake 3.31 (expectations-trixie.txt).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

#include "tests/support/test_support.h"

namespace rocm_audit {
namespace {

using testing::RunCommand;

// Below this many configs the packages are taken as not installed.
constexpr size_t kAtLeast = 100;

std::string Quote(const std::string& s) { return "'" + s + "'"; }

int StageOrder(const std::string& stage) {
  return stage == "configure" ? 0 : stage == "generate" ? 1 : stage == "build" ? 2 : 3;
}

// A system whose package configs are compared: this machine's ("" root), or a root made by
// make_root.sh, probed inside it.
struct World {
  std::string root;          ///< "" for this machine
  std::string expectations;  ///< under tests/cmake-world/
};

// ROCm's configs, which tests/cli/cmake_agreement_test.cc compares (hip-lang's is loaded by
// enable_language(HIP), with the consumer's HIP compiler): `path` in the world's root.
bool RocmConfig(const World& world, const std::string& path) {
  const std::string in_root = path.substr(std::min(path.size(), world.root.size()));
  return in_root.find("/rocm") != std::string::npos || in_root.find("/hip") != std::string::npos;
}

// The directories holding the system's package configs, but CMake's own modules and ROCm's.
std::set<std::string> ConfigDirectories(const World& world) {
  std::set<std::string> dirs;
  std::string out;
  const std::string usr = Quote(world.root + "/usr");
  RunCommand("find " + usr + "/lib " + usr +
                 "/share -maxdepth 6 \\( -name '*Config.cmake' -o -name "
                 "'*-config.cmake' \\) -not -path '*/usr/share/cmake-*' 2>/dev/null",
             &out);
  for (const std::string& line : testing::Lines(out)) {
    if (line.empty() || RocmConfig(world, line)) continue;
    dirs.insert(std::filesystem::path(line).parent_path().string());
  }
  return dirs;
}

// The stage at which rocm-audit says a consumer of the config fails ("" when it passes):
// the earliest of its error-level findings (and missing required dependencies) for a
// consumer that asks for no component.
struct Verdict {
  std::string package, config;
  std::string audit, cmake, output;
};

std::string Earlier(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return StageOrder(a) <= StageOrder(b) ? a : b;
}

std::string Canonical(const std::string& path) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::weakly_canonical(path, ec);
  return ec ? path : p.string();
}

// A path the report names, as the host names it: a dependency found in a root is named as the
// root's system names it.
std::string OnHost(const World& world, const std::string& path) {
  return world.root.empty() || path.starts_with(world.root + "/") ? path : world.root + path;
}

std::map<std::string, Verdict> AuditVerdicts(const World& world, const std::set<std::string>& dirs,
                                             const std::string& binary) {
  std::string args;
  for (const std::string& d : dirs) args += " " + Quote(d);
  // The installed system (the host's `/` or the root) is the consumer's: its prefixes are
  // searched as CMake searches them there, and its CMake's own Find modules run against it.
  // --symbols: the targets each found dependency makes available.
  const std::string system = " --root " + Quote(world.root.empty() ? "/" : world.root);
  std::string json;
  RunCommand(
      binary + args + system + " --symbols --absolute-paths --format json --fail-on none -q -j 2 2>/dev/null",
      &json);
  auto report = nlohmann::json::parse(json);
  std::map<std::string, std::string> package_of;           // by config
  std::map<std::string, std::vector<std::string>> found;   // a config's dependencies found
  std::map<std::string, std::set<std::string>> available;  // the targets its consumer has
  // A dependency is found where CMake finds it (/usr/lib/llvm-19/cmake/ for LLVM, through the
  // cmake -> lib/cmake/llvm symlink); the report's files are named by the walked path.
  std::map<std::string, std::string> canonical_config;
  for (const auto& f : report["files"]) {
    // A directory with a config of its own is walked whole (Debian 13's cmake/coordgen-config.cmake).
    if (!f.contains("cmake") || RocmConfig(world, OnHost(world, f["path"]))) continue;
    package_of[f["path"]] = f["cmake"]["package"];
    canonical_config[Canonical(f["path"])] = f["path"];
    for (const auto& t : f["cmake"].value("targets", nlohmann::json::array()))
      available[f["path"]].insert(t["name"]);
    for (const auto& d : f["cmake"].value("dependencies", nlohmann::json::array())) {
      if (d.contains("found") && d["found"].is_string())
        found[f["path"]].push_back(Canonical(OnHost(world, d["found"])));
      for (const auto& t : d.value("targets", nlohmann::json::array())) available[f["path"]].insert(t);
    }
  }
  struct Failure {
    std::string stage, linked;  ///< `linked`: the target a cmake-missing-target finding names
  };
  std::map<std::string, std::vector<Failure>> failures;  // by config
  for (const auto& f : report["findings"]) {
    std::string check = f["check"];
    if (!package_of.count(f["file"]) || f.contains("asked_component")) continue;
    bool error = check.starts_with("cmake-") && f["severity"] == "error";
    bool dependency = check == "cmake-missing-dependency" && f["severity"] == "warning";
    if (error || dependency)
      failures[f["file"]].push_back({f.value("cmake_stage", "configure"),
                                     check == "cmake-missing-target" ? f.value("linked", "") : ""});
  }
  auto stage_of = [&](const std::string& config, const std::set<std::string>* has) {
    std::string stage;
    for (const Failure& x : failures[config])
      if (x.linked.empty() || !has || !has->count(x.linked)) stage = Earlier(stage, x.stage);
    return stage;
  };
  // The probe links every imported target it gets, its dependencies' too: a dependency's
  // generate or build failure is the consumer's, but for a target the dependency misses that
  // the consumer has from elsewhere (KF5TextWidgets finds Qt5Widgets, KF5Sonnet does not and
  // links Qt5::Widgets). (A dependency's configure failure is the dependency check's, already
  // among the config's own findings when it is required.)
  std::map<std::string, Verdict> out;
  for (const auto& [config, package] : package_of) {
    std::string stage = stage_of(config, nullptr);
    std::set<std::string> seen{config};
    std::vector<std::string> todo = found[config];
    while (!todo.empty() && stage != "configure") {
      std::string d = canonical_config.count(todo.back()) ? canonical_config[todo.back()] : todo.back();
      todo.pop_back();
      if (!seen.insert(d).second || !package_of.count(d)) continue;
      if (const std::string at = stage_of(d, &available[config]); at != "configure")
        stage = Earlier(stage, at);
      todo.insert(todo.end(), found[d].begin(), found[d].end());
    }
    out[package + " " + config] = {package, config, stage, "", ""};
  }
  return out;
}

// Where CMake fails a consumer of the config (tests/cmake-world/probe.sh): configure,
// generate, build, or "" when it passes. In a root, the root's own cmake and make run the
// probe inside it (chroot), in `workdir` there, with a /proc.
std::string CMakeFailsAt(const World& world, const Verdict& v, const std::string& workdir,
                         std::string* output) {
  const std::string config_dir = std::filesystem::path(v.config).parent_path().string();
  std::string cmd;
  if (world.root.empty()) {
    cmd = Quote(std::string(ROCM_AUDIT_SOURCE_DIR) + "/tests/cmake-world/probe.sh") + " " +
          Quote(ROCM_AUDIT_CMAKE_COMMAND) + " " + Quote(ROCM_AUDIT_CMAKE_GENERATOR) + " " +
          Quote(ROCM_AUDIT_CMAKE_MAKE_PROGRAM) + " " + Quote(workdir) + " " + Quote(v.package) + " " +
          Quote(config_dir);
  } else {
    // With the root's own /proc, as a consumer's machine has one (Vc's config reads
    // /proc/cpuinfo), mounted in a mount namespace of the probe's own: gone when it ends.
    cmd =
        "unshare --mount --propagation private sh -c 'mount -t proc proc \"$0/proc\" && exec chroot \"$0\" "
        "\"$@\"' " +
        Quote(world.root) + " /bin/sh /tmp/rocm-audit-probe.sh /usr/bin/cmake 'Unix Makefiles' '' " +
        Quote(workdir) + " " + Quote(v.package) + " " + Quote(config_dir.substr(world.root.size())) + " 2>&1";
  }
  RunCommand(cmd, output);
  size_t at = output->rfind("stage: ");
  std::string stage = at == std::string::npos ? "probe failed" : output->substr(at + 7);
  while (!stage.empty() && stage.back() == '\n') stage.pop_back();
  return stage == "passes" ? "" : stage;
}

// expectations.txt: "<package> <config> <rocm-audit's stage> <cmake's stage> <why>", a
// stage being configure, generate, build or passes; '#' starts a comment line. A root's
// configs are named as its system names them.
std::map<std::string, std::pair<std::string, std::string>> Expectations(const World& world) {
  std::map<std::string, std::pair<std::string, std::string>> out;
  std::istringstream in(
      testing::ReadAll(std::string(ROCM_AUDIT_SOURCE_DIR) + "/tests/cmake-world/" + world.expectations));
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string package, config, audit, cmake;
    words >> package >> config >> audit >> cmake;
    out[package + " " + world.root + config] = {audit, cmake};
  }
  return out;
}

std::string Shown(const std::string& stage) { return stage.empty() ? "passes" : stage; }

// Probes every config of `verdicts` with real CMake, two at a time, and compares.
void CompareWithCMake(const World& world, std::map<std::string, Verdict>& verdicts) {
  // Two probes at a time, each in its own directory.
  std::vector<Verdict*> all;
  for (auto& [key, v] : verdicts) all.push_back(&v);
  const std::string work = ::testing::TempDir() + "/rocm-audit-world-" + std::to_string(getpid());
  if (!world.root.empty())
    std::filesystem::copy_file(std::string(ROCM_AUDIT_SOURCE_DIR) + "/tests/cmake-world/probe.sh",
                               world.root + "/tmp/rocm-audit-probe.sh",
                               std::filesystem::copy_options::overwrite_existing);
  std::vector<std::thread> workers;
  for (size_t w = 0; w < 2; ++w)
    workers.emplace_back([&, w] {
      for (size_t k = w; k < all.size(); k += 2)
        all[k]->cmake = CMakeFailsAt(world, *all[k], work + "/" + std::to_string(w), &all[k]->output);
    });
  for (std::thread& t : workers) t.join();
  std::filesystem::remove_all(world.root + work);

  auto expected = Expectations(world);
  size_t agree = 0, explained = 0;
  std::map<std::string, size_t> by_stage;
  for (auto& [key, v] : verdicts) {
    ++by_stage[Shown(v.cmake)];
    const bool same = v.audit == v.cmake;
    agree += same;
    auto e = expected.find(key);
    if (same) {
      if (e != expected.end()) printf("world: expectation no longer needed: %s\n", key.c_str());
      continue;
    }
    if (e != expected.end() && e->second == std::make_pair(Shown(v.audit), Shown(v.cmake))) {
      ++explained;
      continue;
    }
    ADD_FAILURE() << key << ": rocm-audit " << Shown(v.audit) << ", cmake " << Shown(v.cmake) << ":\n"
                  << v.output;
  }
  printf(
      "world: %zu configs; agree %zu (%.1f%%), explained %zu; cmake passes %zu, fails at configure %zu, "
      "generate %zu, build %zu\n",
      verdicts.size(), agree, 100.0 * agree / verdicts.size(), explained, by_stage["passes"],
      by_stage["configure"], by_stage["generate"], by_stage["build"]);
}

TEST(CMakeWorld, AgreesWithCMakeOnDebianConfigs) {
  const World host{"", "expectations.txt"};
  const char* binary = std::getenv("ROCM_AUDIT_WORLD_BINARY");  // another build, to compare
  std::map<std::string, Verdict> verdicts =
      AuditVerdicts(host, ConfigDirectories(host), binary ? binary : ROCM_AUDIT_BINARY);
  if (verdicts.size() < kAtLeast)
    ROCM_AUDIT_SKIP_NO_INSTALLED_WORLD << verdicts.size()
                                       << " package configs installed in /usr; tests/cmake-world/install.sh "
                                          "installs them";
  CompareWithCMake(host, verdicts);
}

// Debian 13 (trixie): Qt 6.8, KF6, VTK 9.3, PCL 1.15, SuiteSparse 7.10, ament_cmake, CMake
// 3.31. The root is $ROCM_AUDIT_TRIXIE_WORLD, default /var/tmp/rocm-audit-trixie-world.
TEST(CMakeWorld, AgreesWithCMakeInADebian13Root) {
  const char* env = std::getenv("ROCM_AUDIT_TRIXIE_WORLD");
  const World trixie{env && *env ? env : "/var/tmp/rocm-audit-trixie-world", "expectations-trixie.txt"};
  if (!std::filesystem::exists(trixie.root + "/usr/bin/cmake"))
    ROCM_AUDIT_SKIP_NO_INSTALLED_WORLD << "no Debian 13 root at " << trixie.root
                                       << "; tests/cmake-world/make_root.sh makes it";
  if (geteuid() != 0) ROCM_AUDIT_SKIP_NEEDS_ROOT << "the probes run in the root by chroot(2)";
  const char* binary = std::getenv("ROCM_AUDIT_WORLD_BINARY");
  std::map<std::string, Verdict> verdicts =
      AuditVerdicts(trixie, ConfigDirectories(trixie), binary ? binary : ROCM_AUDIT_BINARY);
  ASSERT_GE(verdicts.size(), kAtLeast) << "package configs in " << trixie.root;
  CompareWithCMake(trixie, verdicts);
}

}  // namespace
}  // namespace rocm_audit
