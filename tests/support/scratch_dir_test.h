// A test fixture with a fresh directory of its own, named after the suite, the process and the
// test (tests of one binary run in parallel under ctest), removed after the test.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace rocm_audit::testing {

class ScratchDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() / ("rocm-audit-" + std::string(info->test_suite_name()) +
                                                     "-" + std::to_string(getpid()) + "-" + info->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  /// Writes `text` to `name` under the directory (its parents made); its path.
  std::string Write(const std::string& name, const std::string& text) {
    std::filesystem::path p = dir_ / name;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }

  std::filesystem::path dir_;
};

}  // namespace rocm_audit::testing
