// diff on real updates from Debian's archive: the bookworm and sid packages of the same ROCm
// library, and sid's rocBLAS Tensile data with a processor's files taken out. The symbols it says were
// removed must be exactly those `llvm-nm-19 -D
// --defined-only` lists for the old file and not for the new (a version still defined,
// default or hidden, keeps a versioned symbol; any definition keeps an unversioned one; clang's
// per-build __hip_cuid_* are no interface, nor is the absolute symbol each version node has).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using Json = nlohmann::json;

// nm's names of the file's defined dynamic symbols.
std::vector<std::string> Defined(const std::string& file) {
  std::string out;
  EXPECT_EQ(RunCommand("llvm-nm-19 -D --defined-only " + file + " | awk '{print $NF}'", &out), 0) << file;
  return Lines(out);
}

std::pair<std::string, std::string> NameAndVersion(const std::string& s) {
  const size_t at = s.find('@');
  if (at == std::string::npos) return {s, ""};
  return {s.substr(0, at), s.substr(s.find_first_not_of('@', at))};
}

std::set<std::string> RemovedByNm(const std::string& old_file, const std::string& new_file) {
  std::set<std::pair<std::string, std::string>> now;
  std::set<std::string> names;
  for (const std::string& s : Defined(new_file)) {
    now.insert(NameAndVersion(s));
    names.insert(NameAndVersion(s).first);
  }
  std::set<std::string> out;
  for (const std::string& s : Defined(old_file)) {
    const auto [name, version] = NameAndVersion(s);
    if (name.starts_with("__hip_cuid_")) continue;  // a build's identity, bound by nothing else
    if (name == version) continue;                  // a version node's mark, no symbol (issue 50)
    if (version.empty() ? !names.count(name) : !now.count({name, version})) out.insert(s);
  }
  return out;
}

struct Update {
  const char* old_deb;
  const char* new_deb;
  const char* soname;
  size_t removed;  // what the issue counted with nm -D
};

class CorpusDiff : public ::testing::TestWithParam<Update> {};

TEST_P(CorpusDiff, RemovedSymbolsAreThoseNmLists) {
  const std::string corpus = CorpusRoot();
  if (!std::filesystem::is_directory(corpus + "/debs"))
    ROCM_AUDIT_SKIP_NO_CORPUS << "no corpus at " << corpus;
  const Update u = GetParam();
  ROCM_AUDIT_SKIP_IF_SLICE_LACKS(corpus + "/debs/bookworm/" + u.old_deb);
  ROCM_AUDIT_SKIP_IF_SLICE_LACKS(corpus + "/debs/sid/" + u.new_deb);
  std::string json;
  ASSERT_EQ(RunCommand(std::string(ROCM_AUDIT_BINARY) + " diff --no-progress --fail-on none --format json " +
                           corpus + "/debs/bookworm/" + u.old_deb + " " + corpus + "/debs/sid/" + u.new_deb,
                       &json),
            0);
  const Json report = Json::parse(json);
  const Json* found = nullptr;
  for (const Json& f : report["findings"])
    if (f["check"] == "symbols-removed" && f["soname"] == u.soname) found = &f;
  ASSERT_NE(found, nullptr) << json.substr(0, 2000);
  const std::string lib = std::string("/usr/lib/x86_64-linux-gnu/") + u.soname;
  const std::set<std::string> expected =
      RemovedByNm(corpus + "/bookworm-root" + lib, corpus + "/sid-root" + lib);
  const std::set<std::string> removed = (*found)["removed"].get<std::set<std::string>>();
  EXPECT_EQ(removed, expected);
  EXPECT_EQ(removed.size(), u.removed);
  EXPECT_EQ((*found)["count"], u.removed);
}

INSTANTIATE_TEST_SUITE_P(
    DebianUpdates, CorpusDiff,
    ::testing::Values(
        Update{"librocrand1_5.3.3-4_amd64.deb", "librocrand1_6.4.3-1_amd64.deb", "librocrand.so.1", 149},
        Update{"libamdhip64-5_5.2.3-8_amd64.deb", "libamdhip64-5_5.7.1-7_amd64.deb", "libamdhip64.so.5", 9},
        Update{"libhiprand1_5.3.3-4_amd64.deb", "libhiprand1_6.4.3-1_amd64.deb", "libhiprand.so.1", 2}),
    [](const auto& info) {
      return std::string(info.param.soname).substr(3, std::string(info.param.soname).find('.') - 3);
    });

// A side may be a set of packages installed together: Debian's librocrand1 with its
// librocrand-dev (the development symlink, headers, the CMake config), bookworm -> sid. The
// library is matched whichever package of each set holds it, the removed symbols are nm's,
// and the set given in another order gives the same report.
TEST(CorpusDiffSets, RuntimeAndDevelopmentPackagesTogether) {
  const std::string corpus = CorpusRoot();
  if (!std::filesystem::is_directory(corpus + "/debs"))
    ROCM_AUDIT_SKIP_NO_CORPUS << "no corpus at " << corpus;
  const std::string old_lib = corpus + "/debs/bookworm/librocrand1_5.3.3-4_amd64.deb";
  const std::string old_dev = corpus + "/debs/bookworm/librocrand-dev_5.3.3-4_amd64.deb";
  const std::string new_lib = corpus + "/debs/sid/librocrand1_6.4.3-1_amd64.deb";
  const std::string new_dev = corpus + "/debs/sid/librocrand-dev_6.4.3-1_amd64.deb";
  ROCM_AUDIT_SKIP_IF_SLICE_LACKS(new_lib);  // 41 MB: the slice holds bookworm's only
  const std::string diff =
      std::string(ROCM_AUDIT_BINARY) + " diff --no-progress --fail-on none --format json ";
  std::string json, reordered;
  ASSERT_EQ(
      RunCommand(diff + "--from " + old_lib + " " + old_dev + " --to " + new_lib + " " + new_dev, &json), 0);
  ASSERT_EQ(
      RunCommand(diff + "--from " + old_dev + " " + old_lib + " --to " + new_dev + " " + new_lib, &reordered),
      0);
  EXPECT_EQ(json, reordered);
  const Json report = Json::parse(json);
  std::vector<const Json*> removed;
  for (const Json& f : report["findings"]) {
    EXPECT_NE(f["check"], "library-removed") << f["message"];
    if (f["check"] == "symbols-removed") removed.push_back(&f);
  }
  ASSERT_EQ(removed.size(), 1u);
  EXPECT_EQ((*removed[0])["soname"], "librocrand.so.1");
  const std::string lib = "/usr/lib/x86_64-linux-gnu/librocrand.so.1";
  EXPECT_EQ((*removed[0])["removed"].get<std::set<std::string>>(),
            RemovedByNm(corpus + "/bookworm-root" + lib, corpus + "/sid-root" + lib));
  EXPECT_EQ((*removed[0])["count"], 149);
  // Both packages of NEW are audited: the library, and the dev package's CMake config.
  EXPECT_GT(report["summary"]["audited_by_kind"].value("cmake-package", 0), 0);
  EXPECT_GT(report["summary"]["audited_by_kind"].value("elf-shared-library", 0), 0);
}

// The processors of a Tensile data directory, as Tensile's runtime picks its files: by the
// processor its name ends in (TensileLibrary_..._gfx90a.co, ..._gfx90a-xnack+.hsaco).
std::set<std::string> TensileProcessors(const std::string& dir) {
  std::set<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    const size_t at = name.rfind("_gfx");
    if (at == std::string::npos) continue;
    const size_t end = name.find_first_of("-.:", at);
    out.insert(name.substr(at + 1, end - at - 1));
  }
  return out;
}

// A hard link where the file system allows one, else a copy.
void Link(const std::filesystem::path& from, const std::filesystem::path& to) {
  std::error_code ec;
  std::filesystem::create_hard_link(from, to, ec);
  if (ec) std::filesystem::copy_file(from, to);
}

// Debian's sid rocBLAS (the archive holds no older one): OLD its library with the Tensile
// files of gfx1030 and gfx1100, NEW the same without gfx1100's, hard links to the corpus's
// files. processors-lost (scope data) names what the directory listings differ by;
// read backwards, an added processor is no finding.
TEST(CorpusDiffTensile, ProcessorsLostFromTheDataAreThoseItsDirectoryNoLongerHas) {
  const std::string corpus = CorpusRoot();
  const std::string libdir = corpus + "/sid-root/usr/lib/x86_64-linux-gnu";
  const std::string data = libdir + "/rocblas/4.4.1/library";
  if (!std::filesystem::is_directory(data)) ROCM_AUDIT_SKIP_NO_CORPUS << "no corpus at " << corpus;
  TempDir t;
  for (const auto& [side, processors] :
       {std::pair<std::string, std::vector<std::string>>{"old", {"gfx1030", "gfx1100"}},
        {"new", {"gfx1030"}}}) {
    const std::string lib = t / side + "/usr/lib/x86_64-linux-gnu";
    std::filesystem::create_directories(lib + "/rocblas/4.4.1/library");
    Link(std::filesystem::canonical(libdir + "/librocblas.so.4"), lib + "/librocblas.so.4");
    for (const auto& e : std::filesystem::directory_iterator(data)) {
      const std::string name = e.path().filename().string();
      for (const std::string& p : processors)
        if (name.find("_" + p + ".") != std::string::npos || name.find("_" + p + "-") != std::string::npos)
          Link(e.path(), lib + "/rocblas/4.4.1/library/" + name);
    }
  }
  const std::string in_lib = "/usr/lib/x86_64-linux-gnu/rocblas/4.4.1/library";
  const std::set<std::string> before = TensileProcessors(t / "old" + in_lib);
  const std::set<std::string> after = TensileProcessors(t / "new" + in_lib);
  ASSERT_EQ(before, (std::set<std::string>{"gfx1030", "gfx1100"}));
  const std::string diff =
      std::string(ROCM_AUDIT_BINARY) + " diff --no-progress --fail-on none --format json ";
  std::string json;
  ASSERT_EQ(RunCommand(diff + t / "old " + t / "new", &json), 0);
  std::vector<Json> lost;
  const Json report = Json::parse(json);
  for (const Json& f : report["findings"])
    if (f["check"] == "processors-lost") lost.push_back(f);
  ASSERT_EQ(lost.size(), 1u) << json.substr(0, 3000);
  EXPECT_EQ(lost[0]["scope"], "data");
  EXPECT_EQ(lost[0]["file"], "usr/lib/x86_64-linux-gnu/rocblas/4.4.1/library");
  std::set<std::string> gone;
  for (const std::string& p : before)
    if (!after.count(p)) gone.insert(p);
  EXPECT_EQ(lost[0]["lost"].get<std::set<std::string>>(), gone);
  EXPECT_EQ(lost[0]["old_processors"].get<std::set<std::string>>(), before);
  EXPECT_EQ(lost[0]["new_processors"].get<std::set<std::string>>(), after);
  ASSERT_EQ(RunCommand(diff + t / "new " + t / "old", &json), 0);
  const Json backwards = Json::parse(json);
  for (const Json& f : backwards["findings"]) EXPECT_NE(f["check"], "processors-lost") << f["message"];
}

// The imported targets real CMake has after find_package(hip CONFIG) on a Debian system
// installed at `root` (every search prefix re-rooted there, CMAKE_FIND_ROOT_PATH): Debian's
// cmake is the oracle of what a consumer of hip gets.
// hip's config stops unless it finds compiler-rt's builtins in the host's
// /usr/lib/clang/*/lib/*, as a real consumer's would: the README's test tools bring
// libclang-rt-19-dev for it.
std::set<std::string> HipTargetsByCMake(const std::string& root) {
  TempDir t;
  WriteAll(t / "CMakeLists.txt",
           "cmake_minimum_required(VERSION 3.21)\nproject(probe C CXX)\nset(HIP_PLATFORM amd)\n"
           "find_package(hip CONFIG REQUIRED)\nget_property(ts DIRECTORY PROPERTY IMPORTED_TARGETS)\n"
           "foreach(x ${ts})\n  message(STATUS \"TARGET ${x}\")\nendforeach()\n");
  const std::string make_program = std::string(ROCM_AUDIT_CMAKE_MAKE_PROGRAM).empty()
                                       ? ""
                                       : " -DCMAKE_MAKE_PROGRAM='" ROCM_AUDIT_CMAKE_MAKE_PROGRAM "'";
  std::string out;
  EXPECT_EQ(RunCommand(
                "'" ROCM_AUDIT_CMAKE_COMMAND "' -G '" ROCM_AUDIT_CMAKE_GENERATOR "'" + make_program + " -S " +
                    t.path() + " -B " + t / "b" + " -DCMAKE_FIND_ROOT_PATH=" + root +
                    " -DCMAKE_FIND_ROOT_PATH_MODE_PACKAGE=ONLY -DCMAKE_LIBRARY_ARCHITECTURE=x86_64-linux-gnu "
                    "2>&1",
                &out),
            0)
      << out;
  std::set<std::string> targets;
  for (const std::string& line : Lines(out))
    if (line.starts_with("-- TARGET ")) targets.insert(line.substr(10));
  return targets;
}

// Issue 50: sid's hip config asks find_package(AMDDeviceLibs QUIET HINTS ${ROCM_PATH} PATHS
// /opt/rocm), and rocm-device-libs-21 installs the config below /usr/lib/llvm-21, where CMake
// does not search: every target of AMDDeviceLibs (ocml, ockl, oclc_*, ...) that bookworm's
// hip brought its consumers is gone. The diff of the two sets says so in the verdict of
// libamdhip64-dev, naming exactly the targets real CMake loses.
TEST(CorpusDiffCMake, HipNoLongerBringsTheTargetsOfAMDDeviceLibs) {
  const std::string corpus = CorpusRoot();
  if (!std::filesystem::is_directory(corpus + "/debs") ||
      !std::filesystem::is_directory(corpus + "/sid-root"))
    ROCM_AUDIT_SKIP_NO_CORPUS << "no corpus at " << corpus;
  const std::set<std::string> before = HipTargetsByCMake(corpus + "/bookworm-root");
  const std::set<std::string> after = HipTargetsByCMake(corpus + "/sid-root");
  std::set<std::string> lost;
  for (const std::string& t : before)
    if (!after.count(t) && t.find("::") == std::string::npos)
      lost.insert(t);  // AMDDeviceLibs's: no namespace
  ASSERT_TRUE(lost.count("ocml") && lost.count("ockl")) << "CMake itself still finds AMDDeviceLibs";
  std::string json;
  const std::string debs = corpus + "/debs/";
  ASSERT_EQ(
      RunCommand(std::string(ROCM_AUDIT_BINARY) + " diff --no-progress --fail-on none --format json --from " +
                     debs + "bookworm/libamdhip64-dev_5.2.3-8_amd64.deb " + debs +
                     "bookworm/rocm-device-libs_5.2.3-2_amd64.deb --to " + debs +
                     "sid/libamdhip64-dev_6.4.3-5_amd64.deb " + debs +
                     "sid/rocm-device-libs-21_7.0.2+dfsg-3_amd64.deb",
                 &json),
      0);
  const Json report = Json::parse(json);
  std::set<std::string> dropped;
  for (const Json& f : report["findings"])
    if (f["check"] == "cmake-dependency-dropped" && f["dependency"] == "AMDDeviceLibs")
      for (const Json& t : f["targets"]) dropped.insert(t.get<std::string>());
  EXPECT_EQ(dropped, lost);
  bool said = false;
  for (const Json& v : report["verdicts"])
    if (v["package"] == "libamdhip64-dev")
      for (const Json& n : v["needs"])
        said |= n.get<std::string>().find("no longer loads AMDDeviceLibs") != std::string::npos;
  EXPECT_TRUE(said) << report["verdicts"].dump(1);
}

}  // namespace
}  // namespace rocm_audit::testing
