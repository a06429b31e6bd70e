#include "tests/support/test_support.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace rocm_audit::testing {

TempDir::TempDir(const std::string& parent) {
  const std::filesystem::path under =
      parent.empty() ? std::filesystem::temp_directory_path() : std::filesystem::path(parent);
  std::string tmpl = (under / "rocm-audit-test-XXXXXX").string();
  char* made = mkdtemp(tmpl.data());
  if (!made) throw std::runtime_error("mkdtemp failed");
  // Canonical, so paths compare equal to what the walk reports.
  path_ = std::filesystem::canonical(made).string();
}

std::string DiskDir() { return std::filesystem::current_path().string(); }

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

int RunCommand(const std::string& command, std::string* output) {
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return -1;
  std::array<char, 4096> buf;
  std::string out;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) out.append(buf.data(), n);
  int status = pclose(pipe);
  if (output) *output = out;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool BuildTree(const std::string& dir, const std::string& script) {
  std::string file = dir + "/.build.sh";
  {
    std::ofstream out(file);
    out << "set -euo pipefail\n. '" ROCM_AUDIT_FIXTURES_DIR "/lib.sh'\ncd '" << dir << "'\n"
        << script << "\n";
  }
  std::string log;
  int rc = RunCommand("bash '" + file + "' 2>&1", &log);
  std::filesystem::remove(file);
  EXPECT_EQ(rc, 0) << "fixture script failed:\n" << script << "\n" << log;
  return rc == 0;
}

std::vector<std::string> Lines(std::string_view text) {
  std::vector<std::string> out;
  while (!text.empty()) {
    size_t end = std::min(text.find('\n'), text.size());
    out.emplace_back(text.substr(0, end));
    text.remove_prefix(std::min(end + 1, text.size()));
  }
  return out;
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void WriteAll(const std::string& path, std::string_view bytes) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  std::ofstream(path, std::ios::binary).write(bytes.data(), bytes.size());
}

std::string CorpusRoot() {
  const char* env = std::getenv("CORPUS");
  if (env && *env) return env;
  const char* home = std::getenv("HOME");
  return std::string(home ? home : "/root") + "/rocm-corpus";
}

bool CorpusIsSlice() {
  struct stat st;
  return stat((CorpusRoot() + "/SLICE").c_str(), &st) == 0;
}

size_t CorpusFloor(size_t whole, size_t slice) { return CorpusIsSlice() ? slice : whole; }

std::string CMakeModuleProjectCommand(const std::string& src, const std::string& build,
                                      const std::string& prefix, const std::string& defines,
                                      const std::string& redirect) {
  const std::string generator = ROCM_AUDIT_CMAKE_GENERATOR, make = ROCM_AUDIT_CMAKE_MAKE_PROGRAM;
  return std::string(ROCM_AUDIT_CMAKE_COMMAND) + " -S " + src + " -B " + build + " -G '" + generator + "'" +
         (make.empty() ? "" : " -DCMAKE_MAKE_PROGRAM=" + make) +
         " -DCMAKE_MODULE_PATH=" ROCM_AUDIT_SOURCE_DIR
         "/hooks/cmake -DROCM_AUDIT_EXECUTABLE=" ROCM_AUDIT_BINARY " -DCMAKE_INSTALL_PREFIX=" +
         prefix + defines + " " + redirect + " && " ROCM_AUDIT_CMAKE_COMMAND " --build " + build + " " +
         redirect;
}

}  // namespace rocm_audit::testing
