// diff against the real tools. GPU processors: on Debian's update of librocrand1 (bookworm
// 5.3.3 to sid 6.4.3, $CORPUS), processors-lost names exactly the processors whose entries
// clang-offload-bundler-19 --list finds in the old library's .hip_fatbin and not in the new
// one, both ways: the real update only adds processors and loses none; read backwards, it
// loses what sid added. CMake: the imported targets diff says a package config no longer
// defines, or no longer brings with a dependency it stopped loading, are exactly the ones real
// CMake imports with find_package() from OLD and not from NEW, on the seeded pair and on the
// corpus's configs, both ways.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using Json = nlohmann::json;
using Names = std::set<std::string>;

const std::string kBin = ROCM_AUDIT_BINARY;

std::string Quote(const std::string& s) { return "'" + s + "'"; }

Json DiffJson(const std::string& old_path, const std::string& new_path) {
  std::string out;
  EXPECT_EQ(RunCommand(kBin + " diff --no-progress --fail-on none --format json " + Quote(old_path) + " " +
                           Quote(new_path),
                       &out),
            0);
  return Json::parse(out);
}

// The processors of the entries clang-offload-bundler-19 lists in each bundle of the file's
// .hip_fatbin section (offset and size as GNU readelf gives them), the section cut at every
// plain or compressed bundle magic.
Names BundlerProcessors(const std::string& file, const TempDir& tmp) {
  std::string where;
  EXPECT_EQ(RunCommand("readelf -SW " + Quote(file) +
                           " | sed -n 's/^ *\\[ *[0-9]*\\] *//p' | awk '$1==\".hip_fatbin\"{print $4, $5}'",
                       &where),
            0);
  const uint64_t offset = std::stoull(where, nullptr, 16);
  const uint64_t size = std::stoull(where.substr(where.find(' ')), nullptr, 16);
  std::ifstream in(file, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(offset));
  std::string section(size, '\0');
  in.read(section.data(), static_cast<std::streamsize>(size));
  std::vector<size_t> starts;
  for (const std::string magic : {"__CLANG_OFFLOAD_BUNDLE__", "CCOB"})
    for (size_t at = section.find(magic); at != std::string::npos; at = section.find(magic, at + 1))
      starts.push_back(at);
  std::sort(starts.begin(), starts.end());
  Names out;
  for (size_t i = 0; i < starts.size(); ++i) {
    const size_t end = i + 1 < starts.size() ? starts[i + 1] : section.size();
    std::ofstream(tmp / "one", std::ios::binary).write(section.data() + starts[i], end - starts[i]);
    std::string listed;
    EXPECT_EQ(
        RunCommand("clang-offload-bundler-19 --list --type=o --input=" + tmp / "one" + " 2>&1", &listed), 0)
        << file << " +" << starts[i] << ": " << listed;
    for (const std::string& id : Lines(listed)) {
      const size_t triple = id.find("amdgcn-amd-amdhsa--");
      if (triple != std::string::npos) out.insert(id.substr(triple + 19, id.find(':', triple) - triple - 19));
    }
  }
  EXPECT_FALSE(out.empty()) << file;
  return out;
}

Names Strings(const Json& j) { return j.get<Names>(); }

TEST(RealToolsDiff, ProcessorsLostAreThoseClangOffloadBundlerListsInOldAndNotInNew) {
  const std::string corpus = CorpusRoot();
  const std::string lib = "/usr/lib/x86_64-linux-gnu/librocrand.so.1.1";
  if (!std::filesystem::exists(corpus + "/bookworm-root" + lib))
    ROCM_AUDIT_SKIP_NO_CORPUS << "no corpus at " << corpus;
  ROCM_AUDIT_SKIP_IF_SLICE_LACKS(corpus + "/sid-root" + lib);  // 41 MB: the slice holds bookworm's only
  TempDir tmp;
  const std::map<std::string, Names> listed = {
      {"bookworm", BundlerProcessors(corpus + "/bookworm-root" + lib, tmp)},
      {"sid", BundlerProcessors(corpus + "/sid-root" + lib, tmp)}};
  for (const auto& [from, to] :
       {std::pair<std::string, std::string>{"bookworm", "sid"}, {"sid", "bookworm"}}) {
    Names expected;
    for (const std::string& p : listed.at(from))
      if (!listed.at(to).count(p)) expected.insert(p);
    const Json report = DiffJson(corpus + "/" + from + "-root" + lib, corpus + "/" + to + "-root" + lib);
    std::vector<Json> lost;
    for (const Json& f : report["findings"])
      if (f["check"] == "processors-lost") lost.push_back(f);
    SCOPED_TRACE(from + " -> " + to);
    if (expected.empty()) {
      EXPECT_THAT(lost, ::testing::IsEmpty());
      continue;
    }
    ASSERT_EQ(lost.size(), 1u);
    Names reported = Strings(lost[0]["lost"]);
    for (const std::string& p : Strings(lost[0]["generic_only"])) reported.insert(p);
    EXPECT_EQ(reported, expected);
    EXPECT_EQ(Strings(lost[0]["old_processors"]), listed.at(from));
    EXPECT_EQ(Strings(lost[0]["new_processors"]), listed.at(to));
  }
  // bookworm's 6 processors (gfx90a twice, xnack+ and xnack-), sid's 10: gfx1010, gfx1100,
  // gfx1101 and gfx1102 added.
  EXPECT_EQ(listed.at("bookworm").size(), 6u);
  EXPECT_EQ(listed.at("sid").size(), 10u);
}

// The imported targets real CMake gives a consumer of each package, one configure per
// prefix: each package found in a subdirectory of its own, where imported targets are
// scoped, with the prefix first on CMAKE_PREFIX_PATH. Packages it cannot find are absent.
std::map<std::string, Names> ImportedTargets(const std::string& prefix,
                                             const std::vector<std::string>& packages, const TempDir& tmp,
                                             const std::string& name) {
  const std::string dir = tmp / name;
  std::filesystem::create_directories(dir);
  std::string top = "cmake_minimum_required(VERSION 3.25)\nproject(probe LANGUAGES C CXX)\n";
  for (const std::string& p : packages) {
    std::filesystem::create_directories(dir + "/" + p);
    WriteAll(dir + "/" + p + "/CMakeLists.txt",
             "find_package(" + p +
                 " CONFIG QUIET)\nget_directory_property(t IMPORTED_TARGETS)\n"
                 "message(STATUS \"TARGETS " +
                 p + "=${t}\")\n");
    top += "add_subdirectory(" + p + ")\n";
  }
  WriteAll(dir + "/CMakeLists.txt", top);
  const std::string make_program = std::string(ROCM_AUDIT_CMAKE_MAKE_PROGRAM).empty()
                                       ? ""
                                       : " -DCMAKE_MAKE_PROGRAM=" + Quote(ROCM_AUDIT_CMAKE_MAKE_PROGRAM);
  std::string out;
  EXPECT_EQ(RunCommand(Quote(ROCM_AUDIT_CMAKE_COMMAND) + " -G " + Quote(ROCM_AUDIT_CMAKE_GENERATOR) +
                           make_program + " -S " + Quote(dir) + " -B " + Quote(dir + "/build") +
                           " -DCMAKE_PREFIX_PATH=" + Quote(prefix) + " -DHIP_PLATFORM=amd 2>&1",
                       &out),
            0)
      << out;
  std::map<std::string, Names> targets;
  for (const std::string& line : Lines(out)) {
    const size_t at = line.find("-- TARGETS ");
    const size_t eq = line.find('=');
    if (at == std::string::npos || eq == std::string::npos) continue;
    Names& names = targets[line.substr(at + 11, eq - at - 11)];
    for (size_t b = eq + 1; b < line.size();) {
      const size_t e = std::min(line.find(';', b), line.size());
      if (e > b) names.insert(line.substr(b, e - b));
      b = e + 1;
    }
  }
  return targets;
}

// Per package of the report, the imported targets its cmake-interface-removed finding names.
std::map<std::string, Names> RemovedTargets(const Json& report) {
  std::map<std::string, Names> out;
  for (const Json& f : report["findings"])
    if (f["check"] == "cmake-interface-removed") out[f["package"]] = Strings(f["removed_targets"]);
  return out;
}

// Per package of the report, the targets its cmake-dependency-dropped findings name, each
// finding's list whole (count equal to what it lists).
std::map<std::string, Names> DroppedTargets(const Json& report) {
  std::map<std::string, Names> out;
  for (const Json& f : report["findings"])
    if (f["check"] == "cmake-dependency-dropped") {
      EXPECT_EQ(f["left_out"], 0) << f["dependency"];
      for (const std::string& t : Strings(f["targets"])) out[f["package"]].insert(t);
    }
  return out;
}

TEST(RealToolsDiff, SeededCMakeTargetRemovedIsWhatRealCMakeNoLongerImports) {
  TempDir tmp;
  const std::string pairs = std::string(ROCM_AUDIT_DIFF_PAIRS) + "/diff";
  const auto before = ImportedTargets(pairs + "/old", {"Pkg"}, tmp, "old");
  const auto after = ImportedTargets(pairs + "/new", {"Pkg"}, tmp, "new");
  ASSERT_TRUE(before.count("Pkg") && after.count("Pkg"));
  Names gone;
  for (const std::string& t : before.at("Pkg"))
    if (!after.at("Pkg").count(t)) gone.insert(t);
  EXPECT_EQ(gone, (Names{"Dep::a", "Dep::b", "Pkg::extra"}));
  const Json report = DiffJson(pairs + "/old", pairs + "/new");
  Names reported = RemovedTargets(report)["Pkg"];
  EXPECT_EQ(reported, Names{"Pkg::extra"});
  const Names dropped = DroppedTargets(report)["Pkg"];
  EXPECT_EQ(dropped, (Names{"Dep::a", "Dep::b"}));
  for (const std::string& t : dropped) EXPECT_TRUE(reported.insert(t).second) << t;
  EXPECT_EQ(reported, gone);
}

// On Debian's configs, each target diff says is removed (cmake-interface-removed: targets a
// config defines itself) or gone with a dependency no longer loaded (cmake-dependency-dropped)
// is one CMake no longer imports, and each target CMake no longer imports is reported one way
// or the other: bookworm's hip-config (5.2) finds AMDDeviceLibs, and a consumer of hip,
// rocrand or rocsparse gets its targets (ocml, ockl, oclc_*) too; sid's does not.
TEST(RealToolsDiff, CorpusCMakeTargetsRemovedAreOnesRealCMakeNoLongerImports) {
  const std::string corpus = CorpusRoot();
  if (!std::filesystem::is_directory(corpus + "/sid-root"))
    ROCM_AUDIT_SKIP_NO_CORPUS << "no corpus at " << corpus;
  // Each package's libraries are needed: a Targets file whose library is missing stops the
  // whole configure (rocrand's), and a package missing on one side is not compared.
  ROCM_AUDIT_SKIP_IF_SLICE_LACKS(corpus + "/sid-root/usr/lib/x86_64-linux-gnu/librocrand.so.1.1");
  const std::vector<std::string> packages = {"amd_comgr",     "hip",     "hiprand",  "hipsparse",
                                             "hsa-runtime64", "rocrand", "rocsparse"};
  TempDir tmp;
  const std::map<std::string, std::map<std::string, Names>> imported = {
      {"bookworm", ImportedTargets(corpus + "/bookworm-root/usr", packages, tmp, "bookworm")},
      {"sid", ImportedTargets(corpus + "/sid-root/usr", packages, tmp, "sid")}};
  size_t only_cmake = 0, dropped_total = 0;
  for (const auto& [from, to] :
       {std::pair<std::string, std::string>{"bookworm", "sid"}, {"sid", "bookworm"}}) {
    // Each side the directories of configs CMAKE_PREFIX_PATH=<root>/usr searches that it has
    // (bookworm's AMDDeviceLibs is in usr/lib/cmake), a set.
    auto configs = [&](const std::string& side) {
      std::string out;
      for (const char* dir : {"/usr/lib/x86_64-linux-gnu/cmake", "/usr/lib/cmake"})
        if (std::filesystem::is_directory(corpus + "/" + side + "-root" + dir))
          out += " " + Quote(corpus + "/" + side + "-root" + dir);
      return out;
    };
    std::string out;
    ASSERT_EQ(RunCommand(kBin + " diff --no-progress --fail-on none --format json --from" + configs(from) +
                             " --to" + configs(to),
                         &out),
              0);
    const Json report = Json::parse(out);
    auto removed = RemovedTargets(report);
    auto dropped = DroppedTargets(report);
    // A consumer of a package that still loads hip loses what hip dropped: reported on hip.
    Names dropped_anywhere;
    for (const auto& [package, targets] : dropped) dropped_anywhere.insert(targets.begin(), targets.end());
    for (const std::string& p : packages) {
      SCOPED_TRACE(from + " -> " + to + ": " + p);
      ASSERT_TRUE(imported.at(from).count(p) && imported.at(to).count(p));
      ASSERT_TRUE(imported.at(from).at(p).count(p == "hsa-runtime64" ? "hsa-runtime64::hsa-runtime64"
                                                : p == "amd_comgr"   ? "amd_comgr"
                                                                     : "hip::host"));
      Names gone;
      for (const std::string& t : imported.at(from).at(p))
        if (!imported.at(to).at(p).count(t)) gone.insert(t);
      for (const std::string& t : removed[p]) EXPECT_TRUE(gone.count(t)) << t;
      for (const std::string& t : dropped[p]) EXPECT_TRUE(gone.count(t)) << t;
      for (const std::string& t : gone) only_cmake += !removed[p].count(t) && !dropped_anywhere.count(t);
      dropped_total += dropped[p].size();
    }
  }
  std::printf("targets of dropped dependencies reported: %zu; no longer imported and not reported: %zu\n",
              dropped_total, only_cmake);
  EXPECT_EQ(only_cmake, 0u);
}

// Co-installability as dpkg itself decides it: OLD's libt1 installed into a private dpkg
// root, then NEW's libt2 (fixtures/make_diff_pairs.sh, trans/: Conflicts or Breaks libt1,
// Conflicts an older libt1, Replaces it alone, no relation). The old library package stays
// (old_package_stays) exactly when dpkg -i leaves libt1 and libt2 both installed.
TEST(RealToolsDiff, TheOldLibraryPackageStaysExactlyWhenDpkgKeepsBothInstalled) {
  if (geteuid() != 0) ROCM_AUDIT_SKIP_NEEDS_ROOT << "dpkg --root installs files owned by root";
  const std::string trans = std::string(ROCM_AUDIT_DIFF_PAIRS) + "/trans/";
  for (const auto& [set, deb] :
       std::vector<std::pair<std::string, std::string>>{{"renamed", "libt2_2.0-1_amd64.deb"},
                                                        {"conflicts", "libt2_2.0-1+b1_amd64.deb"},
                                                        {"conflicts-older", "libt2_2.0-1+b1_amd64.deb"},
                                                        {"breaks", "libt2_2.0-1+b1_amd64.deb"},
                                                        {"replaces", "libt2_2.0-1+b1_amd64.deb"}}) {
    SCOPED_TRACE(set);
    TempDir root;
    std::filesystem::create_directories(root / "var/lib/dpkg/info");
    std::filesystem::create_directories(root / "var/lib/dpkg/updates");
    WriteAll(root / "var/lib/dpkg/status", "");
    const std::string dpkg = "dpkg --root=" + Quote(root.path()) + " --log=/dev/null ";
    ASSERT_EQ(RunCommand(dpkg + "-i " + Quote(trans + "old/libt1_1.0-1_amd64.deb") + " >/dev/null 2>&1"), 0);
    RunCommand(dpkg + "-i " + Quote(trans + set + "/" + deb) + " >/dev/null 2>&1");  // may refuse
    std::string status;
    RunCommand(
        "dpkg-query --root=" + Quote(root.path()) + " -W -f='${Package}=${db:Status-Abbrev}\\n' 2>/dev/null",
        &status);
    const bool both =
        status.find("libt1=ii") != std::string::npos && status.find("libt2=ii") != std::string::npos;
    std::string out;
    ASSERT_EQ(
        RunCommand(kBin +
                       " diff --no-progress --no-base --ld-so-conf /nonexistent --fail-on none --format json "
                       "--from " +
                       Quote(trans + "old/libt1_1.0-1_amd64.deb") + " --to " + Quote(trans + set + "/" + deb),
                   &out),
        0);
    const Json* changed = nullptr;
    const Json report = Json::parse(out);
    for (const Json& f : report["findings"])
      if (f["check"] == "soname-changed") changed = &f;
    ASSERT_NE(changed, nullptr) << out.substr(0, 2000);
    EXPECT_EQ((*changed)["old_package_stays"], both) << status;
  }
}

}  // namespace
}  // namespace rocm_audit::testing
