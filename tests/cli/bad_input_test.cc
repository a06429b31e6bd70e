// Hostile and broken input: every bad file is a finding with a reason, never a crash, and
// the scan goes on.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

#include "tests/support/audit_support.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::AllOf;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

// A real library with symbols, versions and a RUNPATH: the richest tables to break.
std::string MakeSeedLibrary(const TempDir& t) {
  EXPECT_TRUE(BuildTree(t.path(),
                        "mkversioned seed/libseed.so.1 libseed.so.1 'S_1 { global: s1; local: *; };' "
                        "'int undefined_thing(void); int s1(void) { return undefined_thing(); }'"));
  return ReadAll(t / "seed/libseed.so.1");
}

bool HasMalformed(const Report& r, const std::string& file, Severity s = Severity::kError) {
  for (const Finding& f : FindingsOf(r, "malformed-file", file))
    if (f.severity == s && !f.fields["reason"].get<std::string>().empty()) return true;
  return false;
}

TEST(BadInput, EveryTruncationOfARealLibraryIsSurvived) {
  TempDir t;
  std::string seed = MakeSeedLibrary(t);
  ASSERT_GT(seed.size(), 1000u);
  std::filesystem::create_directories(t / "cut");
  std::vector<size_t> cuts;
  for (size_t n = 0; n < seed.size(); n += (n < 128 ? 1 : 61)) cuts.push_back(n);
  for (size_t n : cuts) WriteAll(t / ("cut/lib" + std::to_string(n) + ".so"), seed.substr(0, n));
  Report r = Audit({t / "cut"}, t.path());
  for (size_t n : cuts) {
    std::string path = t / ("cut/lib" + std::to_string(n) + ".so");
    if (n >= 4 && n < 64) {
      EXPECT_TRUE(HasMalformed(r, path)) << n;  // shorter than an ELF header
    }
    if (n < 4) EXPECT_TRUE(HasMalformed(r, path, Severity::kNote)) << n;  // not even a magic
  }
  // Cut inside the section header table (it is at the end): ld.so reads no section header,
  // so the file is read from its program headers, and what needs sections is a note.
  const std::string last = t / ("cut/lib" + std::to_string(cuts.back()) + ".so");
  EXPECT_FALSE(HasMalformed(r, last));
  EXPECT_TRUE(HasMalformed(r, last, Severity::kNote));
}

TEST(BadInput, LyingHeaderCountsAndOffsetsAreReported) {
  TempDir t;
  std::string seed = MakeSeedLibrary(t);
  std::filesystem::create_directories(t / "bad");
  auto patch16 = [&](std::string b, size_t off, uint16_t v) {
    b[off] = v & 0xff;
    b[off + 1] = v >> 8;
    return b;
  };
  auto patch64 = [&](std::string b, size_t off, uint64_t v) {
    for (int i = 0; i < 8; ++i) b[off + i] = static_cast<char>((v >> (8 * i)) & 0xff);
    return b;
  };
  WriteAll(t / "bad/libshnum.so", patch16(seed, 60, 0xffff));          // e_shnum
  WriteAll(t / "bad/libphnum.so", patch16(seed, 56, 0xfff0));          // e_phnum
  WriteAll(t / "bad/libshoff.so", patch64(seed, 40, 0x7fffffffffff));  // e_shoff
  WriteAll(t / "bad/libphoff.so", patch64(seed, 32, ~0ull - 8));       // e_phoff near 2^64
  Report r = Audit({t / "bad"}, t.path());
  // ld.so refuses lying program headers; lying section headers it never reads (a note).
  for (const char* name : {"libphnum.so", "libphoff.so"})
    EXPECT_TRUE(HasMalformed(r, t / (std::string("bad/") + name))) << name;
  for (const char* name : {"libshnum.so", "libshoff.so"}) {
    EXPECT_FALSE(HasMalformed(r, t / (std::string("bad/") + name))) << name;
    EXPECT_TRUE(HasMalformed(r, t / (std::string("bad/") + name), Severity::kNote)) << name;
  }
}

TEST(BadInput, SeededCorruptionNeverCrashes) {
  TempDir t;
  std::string seed = MakeSeedLibrary(t);
  std::filesystem::create_directories(t / "fuzz");
  std::mt19937 rng(20261122);
  const int kFiles = 400;
  // Random bytes, and the extreme integers that make counts and offsets lie.
  const uint64_t kExtremes[] = {0, 0xff, 0x7fffffff, 0xffffffff, 0x7fffffffffffffff, ~0ull};
  for (int i = 0; i < kFiles; ++i) {
    std::string b = seed;
    int flips = 1 + static_cast<int>(rng() % 16);
    for (int k = 0; k < flips; ++k) {
      size_t pos = rng() % b.size();
      if (rng() % 2) {
        b[pos] = static_cast<char>(rng());
      } else {
        uint64_t v = kExtremes[rng() % 6];
        for (size_t j = 0; j < 8 && pos + j < b.size(); ++j) b[pos + j] = static_cast<char>(v >> (8 * j));
      }
    }
    WriteAll(t / ("fuzz/lib" + std::to_string(i) + ".so"), b);
  }
  Report r = Audit({t / "fuzz"}, t.path());
  EXPECT_EQ(r.files.size(), static_cast<size_t>(kFiles));  // every file accounted for
}

uint64_t Get(const std::string& b, size_t off, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b[off + i]);
  return v;
}

void Put(std::string& b, size_t off, int n, uint64_t v) {
  for (int i = 0; i < n; ++i) b[off + i] = static_cast<char>(v >> (8 * i));
}

// Offset of the section header of type `type` (ELF64 little-endian).
size_t SectionHeaderOf(const std::string& b, uint32_t type) {
  uint64_t shoff = Get(b, 40, 8), shnum = Get(b, 60, 2);
  for (uint64_t i = 0; i < shnum; ++i)
    if (Get(b, shoff + i * 64 + 4, 4) == type) return shoff + i * 64;
  return 0;
}

// Regression: LLVM 19 walks sh_info version entries without noticing a zero vd_next or
// vn_next; this once took minutes and gigabytes per file.
TEST(BadInput, VersionChainLongerThanItsSectionIsANote) {
  TempDir t;
  std::string b = MakeSeedLibrary(t);
  size_t verdef = SectionHeaderOf(b, 0x6ffffffd);  // SHT_GNU_verdef
  ASSERT_NE(verdef, 0u);
  Put(b, verdef + 44, 4, 0xffffffff);  // sh_info
  std::filesystem::create_directories(t / "v");
  WriteAll(t / "v/libv.so", b);
  Report r = Audit({t / "v"}, t.path());
  EXPECT_THAT(FindingsOf(r, "malformed-file", t / "v/libv.so"),
              Contains(AllOf(Field(&Finding::severity, Severity::kNote),
                             Field(&Finding::message, HasSubstr("version definitions")))));
}

// Regression: LLVM 19's dynamicEntries() trusted PT_DYNAMIC's file range.
TEST(BadInput, DynamicSegmentPastTheEndOfTheFileIsReported) {
  TempDir t;
  std::string b = MakeSeedLibrary(t);
  uint64_t phoff = Get(b, 32, 8), phnum = Get(b, 56, 2);
  bool patched = false;
  for (uint64_t i = 0; i < phnum; ++i)
    if (Get(b, phoff + i * 56, 4) == 2) {  // PT_DYNAMIC
      Put(b, phoff + i * 56 + 8, 8, 0x7fffffff0000);
      patched = true;
    }
  ASSERT_TRUE(patched);
  std::filesystem::create_directories(t / "d");
  WriteAll(t / "d/libd.so", b);
  Report r = Audit({t / "d"}, t.path());
  auto f = FindingsOf(r, "malformed-file", t / "d/libd.so");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_THAT(f[0].fields["reason"].get<std::string>(), HasSubstr("PT_DYNAMIC"));
}

// Regression: LLVM 19's Archive::Symbol::getMember() followed armap offsets unchecked. The
// armap is never followed; ld follows it and fails ("no more archived files"), so since
// issue 47 the lie is the archive's malformed-file, and no member of it is a provider.
TEST(BadInput, ArchiveWithALyingSymbolIndexIsSurvived) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), "mkarchive \"$PWD/a/libx.a\" x.o 'int x(void) { return 1; }'"));
  std::string b = ReadAll(t / "a/libx.a");
  // The GNU armap ("/" member) starts at byte 68: a big-endian count, then member offsets.
  ASSERT_EQ(b.substr(8, 2), "/ ");
  b[72] = b[73] = b[74] = b[75] = '\x7f';  // first member offset -> far past the end
  WriteAll(t / "a/libx.a", b);
  ASSERT_TRUE(
      BuildTree(t.path(), "mklib a/libu.so libu.so 'int x(void); int u(void) { return x(); }' -nostdlib"));
  Report r = Audit({t / "a"}, t.path());
  auto f = FindingsOf(r, "undefined-symbol", t / "a/libu.so");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_TRUE(f[0].fields["providers"].empty());
  auto m = FindingsOf(r, "malformed-file", t / "a/libx.a");
  ASSERT_EQ(m.size(), 1u);
  EXPECT_THAT(
      m[0].fields["reason"].get<std::string>(),
      HasSubstr("symbol table / entry 0 names member offset 2139062143, past the end of the archive"));
}

// Found by fuzzing: LLVM 19 checks an archive member's size against the archive only when
// it steps to the next member, so the last member's data could run past the end of the file.
TEST(BadInput, ArchiveMemberRunningPastTheEndIsMalformed) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), "mkarchive \"$PWD/a/libx.a\" x.o 'int x(void) { return 1; }'"));
  std::string b = ReadAll(t / "a/libx.a");
  WriteAll(t / "a/libx.a", b.substr(0, b.size() - 100));  // the member's header still claims it all
  Report r = Audit({t / "a"}, t.path());
  auto f = FindingsOf(r, "malformed-file", t / "a/libx.a");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_THAT(f[0].fields["reason"].get<std::string>(), HasSubstr("past the end of the archive"));
}

// A thin archive names its members as other files, relative to where it was made: LLVM
// would open them, from the working directory. They are never opened, even when they exist.
TEST(BadInput, ThinArchiveMembersAreNeverOpened) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
                        "mkdir -p a && printf 'int x(void) { return 1; }' > x.c && gcc -c -fPIC x.c -o x.o"
                        " && ar rcT a/libthin.a x.o && rm x.c\n"
                        "mklib a/libu.so libu.so 'int x(void); int u(void) { return x(); }' -nostdlib"));
  ASSERT_EQ(ReadAll(t / "a/libthin.a").substr(0, 8), "!<thin>\n");
  // Run from the directory that holds x.o, where LLVM would find it.
  std::string cwd = std::filesystem::current_path();
  std::filesystem::current_path(t.path());
  Report r = Audit({t / "a"}, t.path());
  std::filesystem::current_path(cwd);
  auto f = FindingsOf(r, "undefined-symbol", t / "a/libu.so");
  ASSERT_EQ(f.size(), 1u);  // x is not found in the thin archive's member
  EXPECT_TRUE(f[0].fields["providers"].empty()) << f[0].fields.dump();
}

TEST(BadInput, NonElfFileNamedLikeALibraryIsANote) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), "mkdir -p lib && echo '<html>404</html>' > lib/libamdhip64.so.6"));
  Report r = Audit({t.path()}, t.path());
  EXPECT_TRUE(HasMalformed(r, t / "lib/libamdhip64.so.6", Severity::kNote));
}

TEST(BadInput, LinkerScriptIsClassifiedNotReported) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
                        "mkdir -p lib && printf '/* GNU ld script */\\nGROUP ( /lib/libc.so.6 AS_NEEDED ( "
                        "/lib/ld-linux-x86-64.so.2 ) )\\n' > lib/libc.so"));
  Report r = Audit({t.path()}, t.path());
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_EQ(r.files[0].kind, "linker-script");
  EXPECT_TRUE(r.findings.empty());
}

TEST(BadInput, UnreadableFileIsAFindingAndTheScanGoesOn) {
  TempDir t;
  // /proc/self/mem stats as a regular file but every read at offset 0 fails, even as root.
  ASSERT_TRUE(BuildTree(t.path(),
                        "mkdir -p lib && ln -s /proc/self/mem lib/libmem.so\n"
                        "mklib lib/libok.so libok.so 'int ok(void) { return 0; }' -nostdlib"));
  // Named as an input, the link is followed (below a directory it would leave the tree).
  Report r = Audit({t / "lib/libmem.so", t / "lib"}, "");
  auto f = FindingsOf(r, "unreadable-file", t / "lib/libmem.so");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_THAT(f[0].message, HasSubstr("cannot read"));
  bool ok_audited = false;
  for (const auto& e : r.files) ok_audited |= e.path == t / "lib/libok.so";
  EXPECT_TRUE(ok_audited);
}

TEST(BadInput, ElfForAnotherMachineIsAuditedWithItsOwnRules) {
  TempDir t;
  ASSERT_TRUE(BuildTree(
      t.path(),
      "mkdir -p lib && cat > arm.yaml <<'Y'\n"
      "--- !ELF\nFileHeader:\n  Class: ELFCLASS64\n  Data: ELFDATA2LSB\n  Type: ET_DYN\n  Machine: "
      "EM_AARCH64\n"
      "Sections:\n  - Name: .dynstr\n    Type: SHT_STRTAB\n    Flags: [ SHF_ALLOC ]\n    Address: 0x1000\n"
      "    Content: '006c6962632e736f2e3600'\n"
      "  - Name: .dynamic\n    Type: SHT_DYNAMIC\n    Flags: [ SHF_ALLOC ]\n    Address: 0x1100\n    Link: "
      ".dynstr\n"
      "    Entries:\n      - Tag: DT_STRTAB\n        Value: 0x1000\n      - Tag: DT_STRSZ\n        Value: "
      "11\n"
      "      - Tag: DT_NEEDED\n        Value: 1\n      - Tag: DT_NULL\n        Value: 0\n"
      "ProgramHeaders:\n  - Type: PT_LOAD\n    VAddr: 0x1000\n    FirstSec: .dynstr\n    LastSec: .dynamic\n"
      "  - Type: PT_DYNAMIC\n    VAddr: 0x1100\n    FirstSec: .dynamic\n    LastSec: .dynamic\n"
      "Y\nyaml2obj-19 arm.yaml -o lib/libarm.so && rm arm.yaml"));
  Report r = Audit({t.path()}, t.path());
  ASSERT_EQ(r.files.size(), 1u);
  ASSERT_TRUE(r.files[0].elf);
  EXPECT_EQ(r.files[0].elf->machine, "aarch64");
  auto f = FindingsOf(r, "unresolved-library");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].fields["library"], "libc.so.6");
  bool searched_aarch64 = false;
  for (const auto& s : f[0].fields["searched"])
    searched_aarch64 |= s["directory"] == "/usr/lib/aarch64-linux-gnu";
  EXPECT_TRUE(searched_aarch64) << f[0].fields.dump();
}

TEST(BadInput, SymlinkLoopsAndDirectoryCyclesAreSurvived) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
                        "mkdir -p lib/sub && ln -s libb.so lib/liba.so && ln -s liba.so lib/libb.so\n"
                        "ln -s .. lib/sub/up && ln -s ../.. lib/sub/up2\n"
                        "mklib lib/libok.so libok.so 'int ok(void) { return 0; }' -nostdlib"));
  Report r = Audit({t.path()}, t.path());
  EXPECT_THAT(FilesOf(FindingsOf(r, "symlink-loop")),
              UnorderedElementsAre(t / "lib/liba.so", t / "lib/libb.so"));
  EXPECT_THAT(AuditedPaths(r), ElementsAre(t / "lib/libok.so"));  // once, whatever the cycles
}

TEST(BadInput, HugeSparseFileIsMappedNotRead) {
  TempDir t;
  std::string seed = MakeSeedLibrary(t);
  std::filesystem::create_directories(t / "huge");
  WriteAll(t / "huge/libhuge.so", seed);
  ASSERT_EQ(truncate((t / "huge/libhuge.so").c_str(), 64ll << 30), 0);  // 64 GiB, sparse
  Report r = Audit({t / "huge"}, t.path());
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_EQ(r.files[0].kind, "elf-shared-library");
}

}  // namespace
}  // namespace rocm_audit::testing
