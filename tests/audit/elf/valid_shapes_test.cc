// Valid libraries in shapes that cost a reader memory by claims, or that a reader tuned to one
// ABI calls malformed (fixtures/hostile_elf47.py): names are views into the file, s390x's
// .hash has 8-byte words, a file too large to map is read by the ranges the audit reads.
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <llvm/Support/MemoryBuffer.h>

#include <cstring>
#include <memory>
#include <string>

#include "audit/elf/elf_head_image.h"
#include "audit/elf/elf_reader.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

struct Read {
  bool ok = false;
  std::string error;
  std::unique_ptr<ElfModel> model = std::make_unique<ElfModel>();
};

Read ReadFile(const std::string& path) {
  Read r;
  auto buffer = MapFile(path, &r.error);
  if (buffer) r.ok = ReadElf(buffer, path, r.model.get(), &r.error);
  return r;
}

void Make(const TempDir& t, const std::string& args) {
  ASSERT_EQ(
      RunCommand("cd '" + t.path() + "' && python3 '" ROCM_AUDIT_FIXTURES_DIR "/hostile_elf47.py' " + args),
      0)
      << args;
}

// Whether `name` lies inside the mapped file: a view, not a copy.
bool InMapping(const ElfModel& m, std::string_view name) {
  const char* start = m.buffer->getBufferStart();
  return name.data() >= start && name.data() + name.size() <= start + m.buffer->getBufferSize();
}

// 4,096 version needs and 4,096 version definitions naming one 1 MiB string: each name is
// that string in the file, 4 GB as copies.
TEST(ValidShapes, VersionNamesAreViewsIntoTheFile) {
  TempDir t;
  Make(t, "names .");
  Read needs = ReadFile(t / "libneeds.so");
  ASSERT_TRUE(needs.ok) << needs.error;
  ASSERT_EQ(needs.model->needed_versions.size(), 4096u);
  for (const NeededVersion& nv : needs.model->needed_versions) {
    ASSERT_EQ(nv.version.size(), 1u << 20);
    ASSERT_TRUE(InMapping(*needs.model, nv.version));
    ASSERT_TRUE(InMapping(*needs.model, nv.library));
    ASSERT_EQ(nv.version.data(), needs.model->needed_versions[0].version.data());
  }
  EXPECT_EQ(needs.model->version_names.size(), 4096u);
  for (const auto& [index, name] : needs.model->version_names) ASSERT_TRUE(InMapping(*needs.model, name));

  Read defs = ReadFile(t / "libdefines.so");
  ASSERT_TRUE(defs.ok) << defs.error;
  ASSERT_EQ(defs.model->defined_versions.size(), 4096u);
  for (std::string_view name : defs.model->defined_versions) ASSERT_TRUE(InMapping(*defs.model, name));
  EXPECT_THAT(defs.model->warnings, IsEmpty());
}

// 20,000 undefined symbols named by the suffixes of one 1 MiB string: the names looked up
// stop at the cap of names per file, and the rest are a note, never a lost file.
TEST(ValidShapes, UndefinedNamesPastTheCapAreANote) {
  TempDir t;
  Make(t, "names .");
  Read r = ReadFile(t / "libsuffixes.so");
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.model->symbol_count(), 20001u);
  uint64_t bytes = 0;
  uint32_t named = 0;
  for (uint32_t i = 1; i < r.model->symbol_count(); ++i) {
    std::string_view name = r.model->NameOf(r.model->SymbolAt(i));
    if (name.empty()) continue;
    ++named;
    bytes += name.size();
  }
  EXPECT_EQ(r.model->NameOf(r.model->SymbolAt(1)).size(), 1u << 20);
  EXPECT_GT(named, 0u);
  EXPECT_LT(named, 20000u);
  EXPECT_LE(bytes, uint64_t(64) << 20);
  ASSERT_EQ(r.model->warnings.size(), 1u);
  EXPECT_THAT(r.model->warnings[0],
              HasSubstr(std::to_string(20000 - named) + " undefined dynamic symbols were not looked up"));
}

// A big-endian ELF64 s390x library whose .hash has 8-byte words (glibc's Elf_Symndx there):
// read as the ABI has it, its exports are found through it.
TEST(ValidShapes, S390xHashHasEightByteWords) {
  TempDir t;
  Make(t, "s390x-hash libs390x.so");
  Read r = ReadFile(t / "libs390x.so");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_THAT(r.model->warnings, IsEmpty());
  EXPECT_EQ(r.model->hash_table.kind, ElfModel::HashTable::kSysv);
  EXPECT_EQ(r.model->hash_table.word_size, 8);
  for (std::string name : {"s390x_one", "s390x_two"}) {
    int found = 0;
    r.model->ForEachDefinition(name, [&](uint32_t index) {
      ++found;
      EXPECT_EQ(r.model->NameOf(r.model->SymbolAt(index)), name);
    });
    EXPECT_EQ(found, 1) << name;
  }
  int found = 0;
  r.model->ForEachDefinition("memcpy", [&](uint32_t) { ++found; });
  EXPECT_EQ(found, 0) << "an undefined symbol is no definition";
}

// PT_DYNAMIC the last bytes of the file, without DT_NULL: the rest of the page reads as
// zeros in ld.so's mapping, DT_NULL. At a page's end nothing follows it: ld.so would fault.
TEST(ValidShapes, ADynamicTableEndingTheFileEndsInThePagesZeros) {
  TempDir t;
  Make(t, "dynamic-at-eof .");
  Read r = ReadFile(t / "libateof.so");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.model->soname, "libateof.so");
  EXPECT_THAT(r.model->needed, ElementsAre("libc.so.6"));

  std::string bytes = ReadAll(t / "libateof.so");
  const size_t dynamic = bytes.size() - 4 * 16;  // its four entries end the file
  std::string padded =
      bytes.substr(0, dynamic) + std::string(4096 - bytes.size(), '\0') + bytes.substr(dynamic);
  // The program headers' offsets and sizes of .dynamic move by the padding: PT_LOAD's
  // p_filesz and p_memsz (at 64 + 32, 64 + 40), PT_DYNAMIC's p_offset, p_vaddr, p_paddr.
  auto add = [&](size_t at, uint64_t delta) {
    uint64_t v;
    std::memcpy(&v, padded.data() + at, 8);
    v += delta;
    std::memcpy(padded.data() + at, &v, 8);
  };
  const uint64_t delta = 4096 - bytes.size();
  add(64 + 32, delta);
  add(64 + 40, delta);
  for (size_t field : {8, 16, 24}) add(64 + 56 + field, delta);
  WriteAll(t / "libpage.so", padded);
  Read page = ReadFile(t / "libpage.so");
  EXPECT_FALSE(page.ok);
  EXPECT_THAT(page.error, HasSubstr("no DT_NULL"));
}

// A 100 GiB sparse library, its tables at the start and its section headers at the end: the
// image holds the start and copies of the headers, a few KB, and reads as the file does.
TEST(ValidShapes, AFileTooLargeToMapIsReadByRanges) {
  TempDir t;
  Make(t, "sparse libsparse.so " + std::to_string(uint64_t(100) << 30));
  const std::string path = t / "libsparse.so";
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  struct stat st;
  ASSERT_EQ(fstat(fd, &st), 0);
  std::string error;
  std::shared_ptr<llvm::MemoryBuffer> image =
      ReadElfHeadImage(fd, static_cast<uint64_t>(st.st_size), path, &error);
  close(fd);
  ASSERT_TRUE(image) << error;
  EXPECT_LT(image->getBufferSize(), 4096u);
  ElfModel m;
  ASSERT_TRUE(ReadElf(image, path, &m, &error)) << error;
  EXPECT_THAT(m.warnings, IsEmpty());
  EXPECT_EQ(m.soname, "libsparse.so");
  EXPECT_THAT(m.needed, ElementsAre("libc.so.6"));
  ASSERT_EQ(m.symbol_count(), 2u);
  EXPECT_EQ(m.NameOf(m.SymbolAt(1)), "sparse_export");
}

}  // namespace
}  // namespace rocm_audit::testing
