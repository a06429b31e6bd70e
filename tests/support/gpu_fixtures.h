// The GPU fixture tree (fixtures/make_gpu_tree.sh, built once per build by CMake with
// clang++-19 -x hip, lld-19 and clang-offload-bundler-19) and helpers to read it, cut
// sections out of it and re-head its compressed bundles.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include "audit/gpu/device_code.h"

namespace rocm_audit::testing {

/// A file of the GPU fixture tree. Tests read it and never write into it.
std::string GpuTreePath(const std::string& rel);

/// A section's bytes, through LLVM's ELF reader ("" when absent).
std::string Section(const std::string& file, const std::string& name);

std::set<std::string> Targets(const DeviceInventory& inv);
size_t ProblemCount(const DeviceInventory& inv);
std::string AllProblems(const DeviceInventory& inv);
DeviceInventory Inventory(FileKind kind, std::string_view bytes, BundleReadOptions o = {});

/// A CCOB header as clang's bundler writes it (v1-v3; method 1 = zstd, 0 = zlib).
std::string CcobHeaderBytes(int version, int method, uint64_t payload, uint64_t raw, uint64_t hash);
uint64_t Md5Low(std::string_view bytes);
std::string Zlib(std::string_view raw, int level);
std::string Zstd(std::string_view raw);
std::string MakeCcob(int version, int method, std::string_view raw);

/// The plain bundle `plain` with each device entry followed by `pad` zero bytes (inside the
/// entry): large enough that its window comes from the shared decode memory.
std::string PaddedBundle(const std::string& plain, size_t pad);
/// A real CCOB v2 (zstd) from the compiler, and the plain bundle inside it.
std::string RealCcob();
std::string Decompressed(const std::string& ccob);

class GpuTree : public ::testing::Test {
 protected:
  static std::string P(const std::string& rel) { return GpuTreePath(rel); }
};

}  // namespace rocm_audit::testing
