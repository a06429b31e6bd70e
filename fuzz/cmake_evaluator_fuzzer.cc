// The CMake evaluator: the input is a package config, evaluated as find_package() would load
// it, inside a private directory that stands for the installed system (written once per
// input; nothing the evaluation does writes anywhere). Limits are lowered so that an
// endless loop or a deep recursion ends within one fuzzing run's time budget.
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "audit/cmake/installed_files.h"
#include "audit/cmake/package_config.h"
#include "audit/fs/rooted_fs.h"
#include "fuzz_dir.h"

namespace {

// The installed system: a config directory, and a file for EXISTS to find.
const std::string& InstalledRoot() {
  static const std::string& root = []() -> const std::string& {
    const std::string& dir = FuzzDir();
    std::filesystem::create_directories(dir + "/usr/lib/cmake/Fuzz");
    std::ofstream(dir + "/usr/lib/libfuzz.so.1") << "something for EXISTS to find";
    return dir;
  }();
  return root;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace rocm_audit;
  const std::string& root = InstalledRoot();
  {
    std::ofstream out(root + "/usr/lib/cmake/Fuzz/FuzzConfig.cmake", std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
  }
  RootedFs fs(root);
  InstalledFiles files(fs, {});
  EvaluatorLimits limits;
  limits.max_commands = 20000;
  limits.max_iterations = 1000;
  limits.max_depth = 16;
  limits.max_file_bytes = 1 << 16;
  CMakePackage package = EvaluatePackage("Fuzz", "/usr/lib/cmake/Fuzz/FuzzConfig.cmake", files, limits);
  return package.evaluation.references.size() == SIZE_MAX;
}
