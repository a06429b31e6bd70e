// Issue 47: foreign archive members never reach a parser that aborts, and lying ar tables are
// malformed archives (llvm/lib/Object/Archive.cpp, binutils bfd/archive.c), never archives
// with fewer members. The archives are made here, byte by byte, as GNU ar lays them out.
#include "audit/elf/archive_reader.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "tests/audit/elf/ar_builder.h"

namespace rocm_audit::testing {
namespace {

std::vector<std::string> Definitions(const std::string& archive, bool* ok = nullptr) {
  std::vector<std::string> out;
  std::string error;
  bool walked = ForEachArchiveDefinition(
      archive,
      [&](std::string_view symbol, std::string_view member) {
        out.push_back(std::string(member) + ":" + std::string(symbol));
      },
      &error);
  if (ok) *ok = walked;
  return out;
}

std::string Malformed(const std::string& archive) {
  ArchiveSummary summary;
  std::string error;
  if (ValidateArchive(archive, &summary, &error)) return "";
  return error;
}

// WebAssembly whose type section's size is 2^32 (LLVM's WasmObjectFile: report_fatal_error
// "LEB is outside Varuint32 range", an abort), one whose type section claims 2^32-1 entries
// (a reservation that runs out of memory), and other formats no ELF linker reads: each is
// counted and named, and the ELF member beside them still defines its symbol.
TEST(ArchiveReader, ForeignMembersAreCountedNeverParsed) {
  const std::string wasm_leb("\0asm\1\0\0\0\1\x80\x80\x80\x80\x10", 14);
  const std::string wasm_types("\0asm\1\0\0\0\1\5\xff\xff\xff\xff\x0f", 14);
  ArBuilder ar;
  ar.Add("module.wasm", wasm_leb);
  ar.Add("types.wasm", wasm_types);
  ar.Add("lto.bc", std::string("BC\xc0\xde\x35\x14\0\0", 8));
  ar.Add("mac.o", std::string("\xcf\xfa\xed\xfe\x07\0\0\x01", 8));
  ar.Add("provider.o", ElfObject({.defined = {"provided_elsewhere"}}));
  const std::string bytes = ar.Bytes();

  ArchiveSummary summary;
  std::string error;
  ASSERT_TRUE(ValidateArchive(bytes, &summary, &error)) << error;
  EXPECT_EQ(summary.members, 5u);
  EXPECT_EQ(summary.non_elf, 4u);
  std::map<std::string, std::string> formats;
  for (const NonElfMember& m : summary.named) formats[m.name] = m.format;
  EXPECT_EQ(
      formats,
      (std::map<std::string, std::string>{
          {"module.wasm", "wasm"}, {"types.wasm", "wasm"}, {"lto.bc", "llvm-bitcode"}, {"mac.o", "mach-o"}}));
  bool ok = false;
  EXPECT_EQ(Definitions(bytes, &ok), std::vector<std::string>{"provider.o:provided_elsewhere"});
  EXPECT_TRUE(ok);
}

TEST(ArchiveReader, NamesAtMostSoManyNonElfMembersAndCountsThemAll) {
  ArBuilder ar;
  for (size_t i = 0; i < kMaxNonElfNamed + 5; ++i) ar.Add("t" + std::to_string(i) + ".txt", "text\n");
  ArchiveSummary summary;
  std::string error;
  ASSERT_TRUE(ValidateArchive(ar.Bytes(), &summary, &error)) << error;
  EXPECT_EQ(summary.non_elf, kMaxNonElfNamed + 5);
  ASSERT_EQ(summary.named.size(), kMaxNonElfNamed);
  EXPECT_EQ(summary.named.front().format, "other");
}

// GNU long names: "/N" is an offset into the // table, each name ending "/\n".
TEST(ArchiveReader, ALongNameOffsetPastTheTableIsMalformed) {
  ArBuilder ar;
  ar.Add("a_member_name_longer_than_15.o", ElfObject({.defined = {"f"}}));
  ar.Add("provider.o", ElfObject({.defined = {"g"}}));
  std::string bytes = ar.Bytes();
  ArBuilder::SetField(&bytes, ar.HeaderOffset(0), 0, 16, "/4096");
  std::string error = Malformed(bytes);
  EXPECT_NE(error.find("long name offset 4096 past the end of the string table"), std::string::npos) << error;
  EXPECT_NE(error.find("offset " + std::to_string(ar.HeaderOffset(0))), std::string::npos) << error;
  bool ok = true;
  Definitions(bytes, &ok);
  EXPECT_FALSE(ok);
}

TEST(ArchiveReader, AnUnterminatedNameTableIsMalformed) {
  ArBuilder ar;
  ar.Add("a_member_name_longer_than_15.o", ElfObject({.defined = {"f"}}));
  std::string bytes = ar.Bytes();
  const size_t table = ar.NameTableOffset() + 60;
  for (size_t i = table; i < table + ar.NameTableSize(); ++i)
    if (bytes[i] == '/' || bytes[i] == '\n') bytes[i] = 'x';
  std::string error = Malformed(bytes);
  EXPECT_NE(error.find("not terminated"), std::string::npos) << error;
  EXPECT_NE(error.find("member header at offset " + std::to_string(ar.HeaderOffset(0))), std::string::npos)
      << error;
}

TEST(ArchiveReader, AHeaderWithoutItsTerminatorIsMalformed) {
  ArBuilder ar;
  ar.Add("one.o", ElfObject({.defined = {"f"}}));
  ar.Add("two.o", ElfObject({.defined = {"g"}}));
  std::string bytes = ar.Bytes();
  ArBuilder::SetField(&bytes, ar.HeaderOffset(1), 58, 2, "X!");
  EXPECT_NE(Malformed(bytes).find("terminator characters"), std::string::npos);
}

TEST(ArchiveReader, TheLastMemberRunningPastTheEndIsMalformed) {
  ArBuilder ar;
  ar.Add("one.o", ElfObject({.defined = {"f"}}));
  std::string bytes = ar.Bytes();
  ArBuilder::SetField(&bytes, ar.HeaderOffset(0), 48, 10, "999999");
  EXPECT_NE(Malformed(bytes).find("one.o runs past the end of the archive"), std::string::npos)
      << Malformed(bytes);
}

// The GNU symbol table (bfd's do_slurp_coff_armap): a count the table cannot hold, or an
// offset where no member header starts (ld: "no more archived files", "malformed archive").
TEST(ArchiveReader, ASymbolTableIsCheckedAgainstTheMembers) {
  for (bool sym64 : {false, true}) {
    ArBuilder ar;
    ar.Add("one.o", ElfObject({.defined = {"f"}}));
    ar.Add("two.o", ElfObject({.defined = {"g"}}));
    ar.SymbolTable({{"f", 0}, {"g", 1}}, sym64);
    EXPECT_EQ(Malformed(ar.Bytes()), "") << "a true table is no finding";

    ar.SymbolTable({{"f", 0}, {"g", ArBuilder::kPastTheEnd}}, sym64);
    std::string error = Malformed(ar.Bytes());
    EXPECT_NE(error.find(std::string("symbol table ") + (sym64 ? "/SYM64/" : "/") + " entry 1"),
              std::string::npos)
        << error;
    EXPECT_NE(error.find("past the end of the archive"), std::string::npos) << error;

    ar.SymbolTable({{"f", ArBuilder::kInsideAMember}}, sym64);
    EXPECT_NE(Malformed(ar.Bytes()).find("where no member header starts"), std::string::npos);

    ar.SymbolTable({{"f", 0}}, sym64, /*claimed_count=*/1u << 30);
    EXPECT_NE(Malformed(ar.Bytes()).find("claims 1073741824 entries"), std::string::npos)
        << Malformed(ar.Bytes());
  }
}

// A thin archive's members are other files: never opened, never counted as foreign, and its
// names are still checked.
TEST(ArchiveReader, AThinArchiveIsWalkedWithoutReadingItsMembers) {
  ArBuilder ar(/*thin=*/true);
  ar.AddThin("sub/dir/provider.o", 1112);
  ArchiveSummary summary;
  std::string error;
  ASSERT_TRUE(ValidateArchive(ar.Bytes(), &summary, &error)) << error;
  EXPECT_EQ(summary.members, 1u);
  EXPECT_EQ(summary.non_elf, 0u);
  EXPECT_TRUE(Definitions(ar.Bytes()).empty());

  std::string bytes = ar.Bytes();
  ArBuilder::SetField(&bytes, ar.HeaderOffset(0), 0, 16, "/999");
  EXPECT_NE(Malformed(bytes).find("long name offset 999"), std::string::npos);
}

}  // namespace
}  // namespace rocm_audit::testing
