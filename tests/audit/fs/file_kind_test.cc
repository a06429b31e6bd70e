#include "audit/fs/file_kind.h"

#include <gtest/gtest.h>

namespace rocm_audit {
namespace {

TEST(FileKind, ClassifiesByContentNotByName) {
  EXPECT_EQ(ClassifyFile("README",
                         "\x7f"
                         "ELF\x02\x01\x01"),
            FileKind::kElf);
  EXPECT_EQ(ClassifyFile("libfoo.so", "!<arch>\nxyz"), FileKind::kArArchive);
  EXPECT_EQ(ClassifyFile("libfoo.a", "!<thin>\nxyz"), FileKind::kArArchive);
  EXPECT_EQ(ClassifyFile("kernels.co", "__CLANG_OFFLOAD_BUNDLE__\x02"), FileKind::kOffloadBundle);
  EXPECT_EQ(ClassifyFile("x.hsaco", "CCOB\x02\x00\x01\x00"), FileKind::kCompressedBundle);
  EXPECT_EQ(ClassifyFile("libfoo.so.6", "<html>"), FileKind::kOther);
}

TEST(FileKind, LinkerScriptsOnlyUnderLibraryNames) {
  const char* script = "/* GNU ld script\n   Use the shared library */\nGROUP ( libc.so.6 )\n";
  EXPECT_EQ(ClassifyFile("libc.so", script), FileKind::kLinkerScript);
  EXPECT_EQ(ClassifyFile("libncurses.a", "INPUT(libncursesw.a)"), FileKind::kLinkerScript);
  EXPECT_EQ(ClassifyFile("notes.txt", script), FileKind::kOther);
  EXPECT_EQ(ClassifyFile("libc.so", std::string("GROUP\0\x01", 7)), FileKind::kOther);
}

TEST(FileKind, CMakePackageFilesByName) {
  EXPECT_EQ(ClassifyFile("composable_kernelConfig.cmake", "include(x)"), FileKind::kCMakePackage);
  EXPECT_EQ(ClassifyFile("rocblas-config.cmake", ""), FileKind::kCMakePackage);
  EXPECT_EQ(ClassifyFile("rocblas-targets-release.cmake", ""), FileKind::kCMakePackage);
  EXPECT_EQ(ClassifyFile("composable_kerneldevice_gemm_operationsTargets.cmake", ""),
            FileKind::kCMakePackage);
  EXPECT_EQ(ClassifyFile("FindFoo.cmake", ""), FileKind::kOther);
}

}  // namespace
}  // namespace rocm_audit
