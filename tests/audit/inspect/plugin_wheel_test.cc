// The wheel of an extension module, read from the RECORD and WHEEL of the dist-info beside
// it (plugin_wheel.h); those files are read as regular files only: a FIFO is never opened
// for a blocking read and a symbolic link is never read through.
#include "audit/inspect/plugin_wheel.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <future>

#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

constexpr const char* kRecord = "pkg/ext.abi3.so,sha256=x,1\npkg-1.0.dist-info/RECORD,,\n";
constexpr const char* kWheel = "Wheel-Version: 1.0\nTag: cp311-cp311-linux_x86_64\n";

TEST(WheelIndex, ReadsTheTagOfTheWheelWhoseRecordListsTheModule) {
  TempDir t;
  WriteAll(t / "site/pkg-1.0.dist-info/RECORD", kRecord);
  WriteAll(t / "site/pkg-1.0.dist-info/WHEEL", kWheel);
  std::optional<WheelAbi> abi = WheelIndex().AbiOf(t / "site/pkg/ext.abi3.so");
  ASSERT_TRUE(abi);
  EXPECT_EQ(abi->version, "3.11");
}

// A RECORD and WHEEL that are links to real files listing the module are not read through:
// the wheel is unknown (before: followed, as to /dev/zero, read until 2 GB).
TEST(WheelIndex, NeverReadsThroughALink) {
  TempDir t;
  WriteAll(t / "elsewhere/RECORD", kRecord);
  WriteAll(t / "elsewhere/WHEEL", kWheel);
  ASSERT_TRUE(BuildTree(t.path(),
                        "mkdir -p site/pkg-1.0.dist-info && ln -s ../../elsewhere/RECORD "
                        "site/pkg-1.0.dist-info/RECORD && ln -s ../../elsewhere/WHEEL "
                        "site/pkg-1.0.dist-info/WHEEL"));
  EXPECT_FALSE(WheelIndex().AbiOf(t / "site/pkg/ext.abi3.so"));
  // Nor a dist-info that is itself a link to a directory elsewhere.
  ASSERT_TRUE(BuildTree(t.path(), "mkdir -p other && ln -s ../elsewhere other/pkg-1.0.dist-info"));
  EXPECT_FALSE(WheelIndex().AbiOf(t / "other/pkg/ext.abi3.so"));
}

// A RECORD that is a FIFO with no writer: skipped at once (before: the read blocked for ever;
// the test then opens the FIFO's other end itself to end the read, and fails).
TEST(WheelIndex, NeverBlocksOnAFifo) {
  TempDir t;
  WriteAll(t / "site/pkg-1.0.dist-info/WHEEL", kWheel);
  ASSERT_TRUE(BuildTree(t.path(), "mkfifo site/pkg-1.0.dist-info/RECORD"));
  WheelIndex index;
  auto abi = std::async(std::launch::async, [&] { return index.AbiOf(t / "site/pkg/ext.abi3.so"); });
  if (abi.wait_for(std::chrono::seconds(10)) != std::future_status::ready) {
    ADD_FAILURE() << "reading a FIFO blocked";
    const int fd = open((t / "site/pkg-1.0.dist-info/RECORD").c_str(), O_WRONLY | O_NONBLOCK);
    if (fd >= 0) close(fd);
  }
  EXPECT_FALSE(abi.get());
}

}  // namespace
}  // namespace rocm_audit::testing
