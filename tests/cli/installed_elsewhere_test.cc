// A package config naming files under a directory where they are not installed, while files
// of those names sit in a directory of the same name elsewhere in the tree (AMDDeviceLibs on
// Debian): each finding says where, and the first screen's cause line names that directory.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;

void WriteBitcodeTree(const TempDir& t) {
  ASSERT_EQ(RunCommand("mkdir -p " + t / "usr/lib/cmake/AMDDeviceLibs " +
                       t / "usr/lib/llvm-21/lib/clang/21/amdgcn/bitcode"),
            0);
  std::string config = "get_filename_component(_prefix \"${CMAKE_CURRENT_LIST_DIR}/../../..\" ABSOLUTE)\n";
  for (const char* lib : {"ocml", "ockl", "oclc_isa_version_1030"}) {
    WriteAll(t / (std::string("usr/lib/llvm-21/lib/clang/21/amdgcn/bitcode/") + lib + ".bc"), "BC");
    config += std::string("add_library(") + lib + " STATIC IMPORTED)\nset_target_properties(" + lib +
              " PROPERTIES IMPORTED_LOCATION \"${_prefix}/lib/amdgcn/bitcode/" + lib + ".bc\")\n";
  }
  WriteAll(t / "usr/lib/cmake/AMDDeviceLibs/AMDDeviceLibsConfig.cmake", config);
}

TEST(InstalledElsewhere, FindingsAndTheCauseSayWhereTheFilesAre) {
  TempDir t;
  WriteBitcodeTree(t);
  const std::string bin = std::string(ROCM_AUDIT_BINARY) + " --no-progress --fail-on none ";
  std::string json, text;
  ASSERT_EQ(RunCommand(bin + "--format json --root " + t.path() + " " + t.path(), &json), 0) << json;
  size_t with_place = 0;
  const nlohmann::json report = nlohmann::json::parse(json);
  const nlohmann::json& findings = report["findings"];
  for (const auto& f : findings) {
    if (f["check"] != "cmake-missing-file") continue;
    ASSERT_TRUE(f.contains("installed_at")) << f.dump();
    const std::string at = f["installed_at"], referenced = f["referenced"];
    EXPECT_TRUE(at.starts_with("/usr/lib/llvm-21/lib/clang/21/amdgcn/bitcode/")) << at;
    EXPECT_EQ(at.substr(at.rfind('/')), referenced.substr(referenced.rfind('/')));
    ++with_place;
  }
  EXPECT_EQ(with_place, 3u);
  ASSERT_EQ(RunCommand(bin + "--root " + t.path() + " " + t.path(), &text), 0) << text;
  EXPECT_THAT(
      text,
      HasSubstr(
          "AMDDeviceLibs: 3 IMPORTED_LOCATION files not installed, under /usr/lib/amdgcn/bitcode; files "
          "of those names are in /usr/lib/llvm-21/lib/clang/21/amdgcn/bitcode"));
}

TEST(InstalledElsewhere, NothingIsClaimedWhenNoFileOfThatNameExists) {
  TempDir t;
  WriteBitcodeTree(t);
  ASSERT_EQ(RunCommand("rm -r " + t / "usr/lib/llvm-21"), 0);
  std::string json;
  ASSERT_EQ(
      RunCommand(std::string(ROCM_AUDIT_BINARY) + " --no-progress --fail-on none --format json " + t.path(),
                 &json),
      0);
  size_t missing = 0;
  const nlohmann::json report = nlohmann::json::parse(json);
  for (const auto& f : report["findings"]) {
    if (f["check"] != "cmake-missing-file") continue;
    ++missing;
    EXPECT_FALSE(f.contains("installed_at")) << f.dump();
  }
  EXPECT_EQ(missing, 3u);
}

}  // namespace
}  // namespace rocm_audit::testing
