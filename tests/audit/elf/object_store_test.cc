#include "audit/elf/object_store.h"

#include "audit/elf/elf_reader.h"
#include "audit/elf/resident_pages.h"

#include <gtest/gtest.h>
#include <llvm/Support/MemoryBuffer.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <vector>

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

std::string_view BytesOf(const llvm::MemoryBuffer& b) { return {b.getBufferStart(), b.getBufferSize()}; }

// Reading a model scans its symbol table whole; lookups read a few pages of it. The pages the
// reading touched are given back, so that a run holds what its lookups read, not every
// table of every library it parsed. rocm-audit itself: 15 MB, its tables at both ends.
TEST(ObjectStore, AParsedFileHoldsNoPagesOfItsMapping) {
  ObjectStore store;
  std::shared_ptr<const StoredObject> got = store.Get(ROCM_AUDIT_BINARY, "rocm-audit");
  ASSERT_TRUE(got->model) << got->error;
  const ElfModel& model = *got->model;
  ASSERT_EQ(model.buffer->getBufferKind(), llvm::MemoryBuffer::MemoryBuffer_MMap);
  EXPECT_EQ(ResidentBytes(BytesOf(*model.buffer)), 0u);
  EXPECT_FALSE(model.pages_kept) << "a large mapping's pages go: its checks release them again";
  // Its tables read the same afterwards: the pages come back from the file.
  ASSERT_GT(model.symbol_count(), 1u);
  bool any_named = false;
  for (uint32_t i = 1; i < model.symbol_count(); ++i) any_named |= !model.NameOf(model.SymbolAt(i)).empty();
  EXPECT_TRUE(any_named);
  EXPECT_GT(ResidentBytes(BytesOf(*model.buffer)), 0u) << "read again, the pages are back";
}

// The passes over a file's imports visit its undefined symbols as a pass over the whole
// table finds them (rocm-audit itself: its imports from LLVM and the C++ library), in
// index order, and a model made without the list still has them all.
TEST(ElfModel, TheUndefinedSymbolsListedAreTheTablesUndefinedSymbols) {
  ObjectStore store;
  std::shared_ptr<const StoredObject> got = store.Get(ROCM_AUDIT_BINARY, "rocm-audit");
  ASSERT_TRUE(got->model) << got->error;
  const ElfModel& model = *got->model;
  ASSERT_TRUE(model.undefined_symbols);
  std::vector<uint32_t> whole;
  for (uint32_t i = 1; i < model.symbol_count(); ++i)
    if (!model.SymbolAt(i).defined()) whole.push_back(i);
  ASSERT_FALSE(whole.empty());
  std::vector<uint32_t> visited;
  model.ForEachUndefined([&](uint32_t i, const DynamicSymbol& s) {
    EXPECT_FALSE(s.defined()) << i;
    EXPECT_EQ(s.name_offset, model.SymbolAt(i).name_offset) << i;
    visited.push_back(i);
  });
  EXPECT_EQ(visited, whole);
  EXPECT_EQ(*model.undefined_symbols, whole);

  ElfModel& unlisted = const_cast<ElfModel&>(model);  // this test's own store's model
  unlisted.undefined_symbols.reset();
  visited.clear();
  unlisted.ForEachUndefined([&](uint32_t i, const DynamicSymbol&) { visited.push_back(i); });
  EXPECT_EQ(visited, whole);
}

// A mapped file's touched pages go and its bytes stay; a buffer in allocated memory (a file
// LLVM copied, a view of the arena) is left alone: MADV_DONTNEED would zero it.
TEST(ResidentPages, AMappingGivesItsPagesBackAndACopyKeepsItsBytes) {
  TempDir t;
  std::string contents(64 * 1024, 'x');
  for (size_t i = 0; i < contents.size(); i += 7) contents[i] = static_cast<char>('a' + i % 26);
  std::ofstream(t / "f", std::ios::binary) << contents;
  std::string error;
  std::shared_ptr<llvm::MemoryBuffer> mapped = MapFile(t / "f", &error);
  ASSERT_TRUE(mapped) << error;
  ASSERT_EQ(mapped->getBufferKind(), llvm::MemoryBuffer::MemoryBuffer_MMap);
  EXPECT_EQ(BytesOf(*mapped), contents);
  EXPECT_EQ(ResidentBytes(BytesOf(*mapped)), contents.size());
  EXPECT_EQ(ReleaseResidentPages(*mapped), contents.size());
  EXPECT_EQ(ResidentBytes(BytesOf(*mapped)), 0u);
  EXPECT_EQ(BytesOf(*mapped), contents) << "read again from the file";

  auto copy = llvm::MemoryBuffer::getMemBufferCopy(contents, "copy");
  EXPECT_EQ(ReleaseResidentPages(*copy), 0u);
  EXPECT_EQ(BytesOf(*copy), contents);
}

// A small file's model says whether its pages were kept when it was read, so that its
// checks do not give them back again (a TLB flush of every core for a few pages): kept
// pages are in the page tables, and pages said not kept are not.
TEST(ObjectStore, ASmallModelSaysWhetherItsPagesWereKept) {
  TempDir t;
  std::string padded = ReadAll(GpuTreePath("co/kernel_gfx906.co"));
  padded.resize(64 * 1024, '\0');  // mapped, not copied (LLVM copies under 4 pages)
  std::ofstream(t / "small.co", std::ios::binary) << padded;
  ObjectStore store;
  std::shared_ptr<const StoredObject> got = store.Get(t / "small.co", "small.co");
  ASSERT_TRUE(got->model) << got->error;
  const ElfModel& model = *got->model;
  ASSERT_EQ(model.buffer->getBufferKind(), llvm::MemoryBuffer::MemoryBuffer_MMap);
  EXPECT_EQ(model.pages_kept, ResidentBytes(BytesOf(*model.buffer)) > 0);
}

// Only the pages wholly inside the range go (the bytes around it share the others); nothing
// of a range that is not the buffer's, nor of a buffer in allocated memory.
TEST(ResidentPages, ARangeGivesBackThePagesWhollyInsideIt) {
  TempDir t;
  const std::string contents(64 * 1024, 'r');
  std::ofstream(t / "f", std::ios::binary) << contents;
  std::string error;
  std::shared_ptr<llvm::MemoryBuffer> mapped = MapFile(t / "f", &error);
  ASSERT_TRUE(mapped) << error;
  ASSERT_EQ(mapped->getBufferKind(), llvm::MemoryBuffer::MemoryBuffer_MMap);
  const std::string_view bytes = BytesOf(*mapped);
  ASSERT_EQ(bytes, contents);
  const long page = sysconf(_SC_PAGESIZE);
  // From 100 bytes into the second page to 100 bytes into the fifth: the third and fourth.
  EXPECT_EQ(ReleaseResidentRange(*mapped, bytes.substr(page + 100, 3 * page)), uint64_t(2 * page));
  EXPECT_EQ(ResidentBytes(bytes.substr(2 * page, 2 * page)), 0u);
  EXPECT_EQ(ResidentBytes(bytes), contents.size() - 2 * page);
  const std::string other(8192, 'o');
  EXPECT_EQ(ReleaseResidentRange(*mapped, other), 0u) << "not the buffer's bytes";
  auto copy = llvm::MemoryBuffer::getMemBufferCopy(contents, "copy");
  EXPECT_EQ(ReleaseResidentRange(*copy, BytesOf(*copy)), 0u);
  EXPECT_EQ(BytesOf(*copy), contents);
  EXPECT_EQ(bytes, contents) << "read again from the file";
}

// Giving pages back costs a TLB flush on every core the process runs on, more than a small
// file's pages are worth: a small mapping keeps them while the run's kept mappings fit the
// budget, then gives them back like a large one; a large one always gives them back.
TEST(ResidentPages, SmallMappingsKeepTheirPagesOnlyWithinTheRunsBudget) {
  TempDir t;
  const std::string small_bytes(64 * 1024, 's'), large_bytes(kSmallMappingBytes, 'l');
  std::ofstream(t / "small", std::ios::binary) << small_bytes;
  std::ofstream(t / "large", std::ios::binary) << large_bytes;
  std::string error;
  std::shared_ptr<llvm::MemoryBuffer> large = MapFile(t / "large", &error);
  ASSERT_TRUE(large) << error;
  ASSERT_EQ(large->getBufferKind(), llvm::MemoryBuffer::MemoryBuffer_MMap);
  ASSERT_EQ(BytesOf(*large), large_bytes);  // every page read: in the page tables
  EXPECT_EQ(ResidentBytes(BytesOf(*large)), kSmallMappingBytes);
  EXPECT_EQ(ReleaseResidentPagesUnlessSmall(*large), kSmallMappingBytes);
  EXPECT_EQ(ResidentBytes(BytesOf(*large)), 0u);

  // Each map of the small file is a mapping of its own; more of them than the budget holds.
  std::vector<std::shared_ptr<llvm::MemoryBuffer>> small;
  uint64_t kept = 0, released = 0;
  for (uint64_t mapped = 0; mapped < 2 * kKeptSmallMappingBytes; mapped += 64 * 1024) {
    small.push_back(MapFile(t / "small", &error));
    ASSERT_TRUE(small.back()) << error;
    ASSERT_EQ(small.back()->getBufferKind(), llvm::MemoryBuffer::MemoryBuffer_MMap);
    ASSERT_EQ(BytesOf(*small.back()), small_bytes);
    ASSERT_EQ(ResidentBytes(BytesOf(*small.back())), 64 * 1024u);
    if (ReleaseResidentPagesUnlessSmall(*small.back()) == 0) {
      EXPECT_EQ(ResidentBytes(BytesOf(*small.back())), 64 * 1024u) << "kept";
      kept += 64 * 1024;
    } else {
      EXPECT_EQ(ResidentBytes(BytesOf(*small.back())), 0u) << "given back";
      ++released;
    }
  }
  EXPECT_GT(kept, 0u);
  EXPECT_LE(kept, kKeptSmallMappingBytes);
  EXPECT_GT(released, 0u) << "past the budget, small mappings give their pages back too";
}

}  // namespace
}  // namespace rocm_audit::testing
