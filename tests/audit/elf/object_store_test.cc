#include "audit/elf/object_store.h"

#include "audit/elf/elf_reader.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "tests/support/gpu_fixtures.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

// A file is parsed once per run, whoever asks; once forgotten, the next asker parses it
// again, and whoever still holds the first model keeps it whole.
TEST(ObjectStore, AForgottenFileIsParsedAgainAndItsHoldersKeepTheirModel) {
  ObjectStore store;
  const std::string path = GpuTreePath("co/kernel_gfx906.co");
  std::shared_ptr<const StoredObject> first = store.Get(path, "kernel_gfx906.co");
  ASSERT_TRUE(first->model) << first->error;
  EXPECT_EQ(store.Get(path, "kernel_gfx906.co"), first) << "asked twice, parsed once";

  store.Forget(path);
  std::shared_ptr<const StoredObject> again = store.Get(path, "kernel_gfx906.co");
  ASSERT_TRUE(again->model) << again->error;
  EXPECT_NE(again, first) << "a forgotten file is parsed again";
  EXPECT_EQ(again->model->flags, first->model->flags);
  EXPECT_EQ(again->model->symbol_count(), first->model->symbol_count());
  EXPECT_EQ(first->model->path, "kernel_gfx906.co") << "the first model is still whole";

  store.Forget("/no/such/file");  // forgetting what was never asked for is nothing
  EXPECT_EQ(store.Get(path, "kernel_gfx906.co"), again);
}

// The loader hands the store files it found by searching: a FIFO there is refused, never
// opened for reading (that would wait for a writer for ever).
TEST(ObjectStore, AFifoIsRefusedWithoutBlocking) {
  TempDir t;
  ASSERT_EQ(mkfifo((t / "libfifo.so").c_str(), 0644), 0);
  std::shared_ptr<const StoredObject> got = ObjectStore().Get(t / "libfifo.so", "libfifo.so");
  EXPECT_FALSE(got->model);
  EXPECT_EQ(got->error, "not a regular file");
}

// Every file is mapped the same way, walked or searched: a walked file that became a FIFO
// before it was read, or a device, is refused the same way and never blocks.
TEST(MapFile, AFifoOrADeviceIsRefusedWithoutBlocking) {
  TempDir t;
  ASSERT_EQ(mkfifo((t / "libwalked.so").c_str(), 0644), 0);
  for (const std::string path : {t / "libwalked.so", std::string("/dev/zero")}) {
    std::string error;
    EXPECT_EQ(MapFile(path, &error), nullptr) << path;
    EXPECT_EQ(error, "not a regular file") << path;
  }
}

}  // namespace
}  // namespace rocm_audit::testing
