#include "audit/inspect/inspected_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <llvm/Support/MemoryBuffer.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <fstream>
#include <sstream>

#include "audit/fs/walk.h"
#include "audit/inspect/inspect_files.h"
#include "tests/support/core_audit.h"
#include "tests/support/gpu_fixtures.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

// Whether the page at `address` is mapped into this process now (bit 63 of its
// /proc/self/pagemap entry), as opposed to only sitting in the page cache.
bool PagePresent(const void* address) {
  static const uint64_t page = uint64_t(sysconf(_SC_PAGESIZE));
  int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return true;
  uint64_t entry = 0;
  off_t at = off_t(reinterpret_cast<uintptr_t>(address) / page * sizeof entry);
  bool read = pread(fd, &entry, sizeof entry, at) == ssize_t(sizeof entry);
  close(fd);
  return !read || (entry >> 63) & 1;
}

// An ELF stays mapped for the whole run, but the pages of its fat binary are dropped once
// the device code is read: the mapping still reads the file's bytes (they come back from
// the page cache), and the device code read again is the same.
TEST(InspectedFile, TheDeviceCodeOfAMappedElfIsDroppedAfterReading) {
  ObjectStore store;
  const std::string path = GpuTreePath("lib/libfat.so.1");
  InspectedFile file = InspectOne(path, store);
  ASSERT_TRUE(file.model());
  const llvm::MemoryBuffer& buffer = *file.model()->buffer;
  ASSERT_EQ(buffer.getBufferKind(), llvm::MemoryBuffer::MemoryBuffer_MMap) << "the fixture is mapped";
  ASSERT_FALSE(file.device.bundles.empty());
  const uintptr_t page = uintptr_t(sysconf(_SC_PAGESIZE));
  const char* start = buffer.getBufferStart();
  size_t dropped = 0;
  for (const Bundle& b : file.device.bundles) {
    uintptr_t first = (reinterpret_cast<uintptr_t>(start) + b.file_offset + page - 1) & ~(page - 1);
    uintptr_t end = reinterpret_cast<uintptr_t>(start) + b.file_offset + b.compressed_size;
    for (uintptr_t p = first; p + page <= end; p += page, ++dropped)
      EXPECT_FALSE(PagePresent(reinterpret_cast<const void*>(p))) << "offset " << p - uintptr_t(start);
  }
  ASSERT_GT(dropped, 0u) << "no whole page inside the fixture's bundles";
  EXPECT_TRUE(PagePresent(start)) << "the ELF header page is read by the model and kept";

  std::string bytes = ReadAll(path);
  EXPECT_EQ(std::string_view(start, buffer.getBufferSize()), bytes);
  DeviceInventory again = Inventory(FileKind::kElf, bytes);
  ASSERT_EQ(again.bundles.size(), file.device.bundles.size());
  for (size_t i = 0; i < again.bundles.size(); ++i)
    EXPECT_EQ(again.bundles[i].entries.size(), file.device.bundles[i].entries.size());
  EXPECT_EQ(file.offers.size(), again.Offers().size());
}

// A GPU code object is unmapped whole right after its own checks: its pages are not given
// back one madvise at a time before that (each flushes every core's TLB), as a host ELF's
// fat binary pages are.
TEST(InspectedFile, AGpuCodeObjectKeepsItsPagesUntilItIsUnmapped) {
  // Zero fill after the section headers makes it large enough for LLVM to map.
  TempDir t;
  std::ofstream(t / "kernel.co", std::ios::binary)
      << ReadAll(GpuTreePath("co/kernel_gfx90a.co")) << std::string(64 << 10, '\0');
  ObjectStore store;
  InspectedFile file = InspectOne(t / "kernel.co", store);
  ASSERT_TRUE(file.model());
  const llvm::MemoryBuffer& buffer = *file.model()->buffer;
  ASSERT_EQ(buffer.getBufferKind(), llvm::MemoryBuffer::MemoryBuffer_MMap) << "the fixture is mapped";
  ASSERT_GT(buffer.getBufferSize(), size_t(sysconf(_SC_PAGESIZE))) << "no whole page inside the fixture";
  ASSERT_EQ(file.device.bundles.size(), 1u);
  EXPECT_FALSE(ReadAfterItsChecks(file));
  EXPECT_TRUE(file.model()->pages_kept);
  EXPECT_TRUE(PagePresent(buffer.getBufferStart()));
}

// The loader and the whole-tree checks read host ELF files and archives after their own
// checks; GPU code objects (ld.so never loads one), bundles and data files they do not.
TEST(InspectedFile, OnlyHostElfFilesAndArchivesAreReadAfterTheirChecks) {
  ObjectStore store;
  const std::pair<const char*, bool> cases[] = {
      {"lib/libfat.so.1", true},       // a host library with device code
      {"obj/plain.o", true},           // a host object file
      {"lib/libdevice.a", true},       // an archive: it defines symbols
      {"co/kernel_gfx906.co", false},  // an AMDGPU code object
      {"co/compressed.hsaco", false},  // a compressed bundle
      {"co/bundle.hsaco", false},      // a plain offload bundle
  };
  for (const auto& [rel, read_later] : cases) {
    InspectedFile file = InspectOne(GpuTreePath(rel), store);
    EXPECT_EQ(ReadAfterItsChecks(file), read_later) << rel;
  }
}

// What a file's reading learned, as text: enough to tell two readings apart.
std::string Summary(const InspectedFile& f) {
  std::ostringstream out;
  out << f.walked.path << ' ' << f.problems.size() << ' ' << f.device.problems.size();
  for (const Bundle& b : f.device.bundles) {
    out << " [" << b.uncompressed_size << ' ' << b.problems.size();
    for (const BundleEntry& e : b.entries)
      out << ' ' << e.id << '@' << e.offset << (e.code_object ? ":" + e.code_object->processor : "");
    out << ']';
  }
  return out.str();
}

// While another worker holds the whole budget, every compressed bundle is put off and the
// plain ones are read; once the window is given back (here, after the last plain file), the
// put-off files are read. Every file ends up read as InspectFile reads it alone.
TEST(InspectFiles, FilesPutOffForAWindowAreReadLikeTheRest) {
  TempDir t;
  const std::string plain = Decompressed(RealCcob());
  for (int i = 0; i < 6; ++i) {
    std::ofstream(t / ("b" + std::to_string(10 + i) + ".co"), std::ios::binary)
        << MakeCcob(3, 1, PaddedBundle(plain, size_t(1 + i % 3) << 20));
    std::ofstream(t / ("plain" + std::to_string(10 + i) + ".co"), std::ios::binary) << plain;
  }
  WalkResult walk = WalkInputs({t.path()}, RootedFs());
  ASSERT_EQ(walk.files.size(), 12u);
  std::vector<std::string> reference;
  ObjectStore alone;
  for (const WalkedFile& w : walk.files) reference.push_back(Summary(InspectFile(w, alone, {})));
  for (unsigned jobs : {1u, 2u}) {
    ObjectStore store;
    DecodeMemory memory(8 << 20);
    BundleReadOptions options;
    options.memory = &memory;
    std::atomic<void*> held{memory.Allocate(8 << 20)};
    std::atomic<size_t> done{0};
    std::vector<Boxed<InspectedFile>> files =
        InspectFiles(walk.files, store, options, memory, jobs, [&](size_t, InspectedFile&) {
          if (++done == 6) memory.Free(held.exchange(nullptr));
          return true;
        });
    EXPECT_EQ(done.load(), walk.files.size()) << jobs;
    EXPECT_EQ(held.load(), nullptr) << "the plain files were read while the window was held";
    std::vector<std::string> got;
    for (const Boxed<InspectedFile>& f : files) got.push_back(f ? Summary(*f) : "(dropped)");
    EXPECT_EQ(got, reference) << jobs;
  }
}

TEST(InspectFiles, AFileTheCallbackDoesNotKeepLeavesAnEmptySlot) {
  TempDir t;
  for (int i = 0; i < 8; ++i)
    std::ofstream(t / ("plain" + std::to_string(i) + ".co"), std::ios::binary) << RealCcob();
  WalkResult walk = WalkInputs({t.path()}, RootedFs());
  ASSERT_EQ(walk.files.size(), 8u);
  ObjectStore store;
  DecodeMemory memory(64 << 20);
  BundleReadOptions options;
  options.memory = &memory;
  std::vector<std::string> seen(walk.files.size());
  std::vector<Boxed<InspectedFile>> files =
      InspectFiles(walk.files, store, options, memory, 2, [&](size_t i, InspectedFile& f) {
        seen[i] = Summary(f);  // the callback sees the whole file, kept or not
        return i % 2 == 0;
      });
  ASSERT_EQ(files.size(), walk.files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    EXPECT_FALSE(seen[i].empty()) << i;
    ASSERT_EQ(bool(files[i]), i % 2 == 0) << i;
    if (files[i]) EXPECT_EQ(Summary(*files[i]), seen[i]) << i;
  }
}

}  // namespace
}  // namespace rocm_audit::testing
