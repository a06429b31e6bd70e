// The symbols an archive's ELF member defines, read in place from its .symtab (issue 47:
// no LLVM ObjectFile on the audit path, no allocation by what a header claims).
#include "audit/elf/member_symbols.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/audit/elf/ar_builder.h"

namespace rocm_audit::testing {
namespace {

std::vector<std::string> Defined(const std::string& object, bool* ok = nullptr,
                                 std::string* error = nullptr) {
  std::vector<std::string> out;
  std::string ignored;
  bool read = ForEachElfMemberDefinition(
      object, [&](std::string_view name) { out.emplace_back(name); }, error ? error : &ignored);
  if (ok) *ok = read;
  return out;
}

// What ar's symbol index lists for a member: global and weak definitions, in table order;
// never a local symbol or an undefined one. Both classes, both byte orders.
TEST(MemberSymbols, GlobalDefinitionsOfEitherClassAndByteOrder) {
  for (bool elf64 : {true, false})
    for (bool little : {true, false}) {
      ElfObjectSpec spec{.defined = {"f", "g"}, .weak = {"w"}, .undefined = {"u"}, .local = {"l"}};
      spec.elf64 = elf64;
      spec.little = little;
      bool ok = false;
      EXPECT_EQ(Defined(ElfObject(spec), &ok), (std::vector<std::string>{"f", "g", "w"}))
          << "elf64=" << elf64 << " little=" << little;
      EXPECT_TRUE(ok);
    }
}

// gABI extended numbering: e_shnum 0, the count in section 0's sh_size.
TEST(MemberSymbols, ExtendedSectionNumbering) {
  EXPECT_EQ(Defined(ElfObject({.defined = {"f"}, .extended_shnum = true})), std::vector<std::string>{"f"});
}

TEST(MemberSymbols, AGpuCodeObjectDefinesNothingForTheHost) {
  bool ok = false;
  EXPECT_TRUE(Defined(ElfObject({.defined = {"kernel"}, .machine = 224}), &ok).empty());  // EM_AMDGPU
  EXPECT_TRUE(ok);
}

TEST(MemberSymbols, ANameOffsetPastTheStringTableEndsTheMembersSymbols) {
  ElfObjectSpec spec{.defined = {"first", "second"}};
  std::string object = ElfObject(spec);
  const ElfObjectLayout at = LayoutOf(spec);
  object[at.symbols + 2 * 24 + 1] = '\x7f';  // symbol 2's st_name: 0x7f00 + ...
  bool ok = true;
  std::string error;
  EXPECT_EQ(Defined(object, &ok, &error), std::vector<std::string>{"first"});
  EXPECT_FALSE(ok);
  EXPECT_NE(error.find("symbol 2: st_name"), std::string::npos) << error;
}

TEST(MemberSymbols, HeadersThatClaimMoreThanTheMemberHolds) {
  ElfObjectSpec spec{.defined = {"f"}};
  const ElfObjectLayout at = LayoutOf(spec);
  std::string many = ElfObject(spec);
  many[60] = '\xff', many[61] = '\xff';  // e_shnum 65535
  std::string error;
  bool ok = true;
  EXPECT_TRUE(Defined(many, &ok, &error).empty());
  EXPECT_FALSE(ok);
  EXPECT_NE(error.find("section header table of 65535 entries"), std::string::npos) << error;

  std::string huge = ElfObject(spec);
  for (int i = 0; i < 8; ++i) huge[at.symtab_header + 32 + i] = '\x7f';  // sh_size
  EXPECT_TRUE(Defined(huge, &ok, &error).empty());
  EXPECT_FALSE(ok);
  EXPECT_NE(error.find("is not whole entries inside the member"), std::string::npos) << error;

  std::string past = ElfObject(spec);
  past.resize(at.shoff + 10);  // the section headers cut
  EXPECT_TRUE(Defined(past, &ok, &error).empty());
  EXPECT_FALSE(ok);
}

TEST(MemberSymbols, OnlyElfOfAKnownClassAndByteOrderIsRead) {
  EXPECT_TRUE(IsReadableElf(ElfObject({})));
  std::string odd = ElfObject({});
  odd[4] = 3;  // no such class
  EXPECT_FALSE(IsReadableElf(odd));
  EXPECT_FALSE(IsReadableElf(std::string("\0asm\1\0\0\0", 8)));
  EXPECT_FALSE(
      IsReadableElf("\x7f"
                    "ELF"));
  bool ok = true;
  EXPECT_TRUE(Defined(odd, &ok).empty());
  EXPECT_FALSE(ok);
}

}  // namespace
}  // namespace rocm_audit::testing
