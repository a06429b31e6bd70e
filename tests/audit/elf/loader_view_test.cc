// The dynamic table as ld.so reads it (audit/elf/loader_view.h, elf_reader.cc): program
// headers first, DT_NULL ends it, DT_STRSZ ignored, section headers never the verdict, and
// separate debug files recognised. Fixtures from yaml2obj-19, gcc and objcopy.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

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
  std::unique_ptr<ElfModel> model = std::make_unique<ElfModel>();  // not movable: held by pointer
};

Read ReadFile(const std::string& path) {
  Read r;
  auto buffer = MapFile(path, &r.error);
  if (buffer) r.ok = ReadElf(buffer, path, r.model.get(), &r.error);
  return r;
}

// A library needing libc.so.0, its table in .dynamic, then `after` (YAML for more sections
// inside the same PT_LOAD), `file_header` and `segments` spliced into the document.
std::string Yaml(const std::string& file_header, const std::string& strsz, const std::string& after,
                 const std::string& dynamic_segment) {
  return "--- !ELF\nFileHeader:\n  Class: ELFCLASS64\n  Data: ELFDATA2LSB\n  Type: ET_DYN\n"
         "  Machine: EM_X86_64\n" +
         file_header +
         "Sections:\n  - Name: .dynstr\n    Type: SHT_STRTAB\n    Flags: [ SHF_ALLOC ]\n    Address: 0x1000\n"
         "    Content: '006c6962632e736f2e30000000000000'\n"
         "  - Name: .dynamic\n    Type: SHT_DYNAMIC\n    Flags: [ SHF_ALLOC ]\n    Address: 0x1010\n"
         "    Link: .dynstr\n    Entries:\n      - Tag: DT_STRTAB\n        Value: 0x1000\n"
         "      - Tag: DT_STRSZ\n        Value: " +
         strsz + "\n      - Tag: DT_NEEDED\n        Value: 1\n      - Tag: DT_NULL\n        Value: 0\n" +
         after +
         "ProgramHeaders:\n  - Type: PT_LOAD\n    VAddr: 0x1000\n    FirstSec: .dynstr\n    LastSec: " +
         (after.empty() ? ".dynamic" : ".junk") + "\n" + dynamic_segment;
}

const std::string kDynamicSegment =
    "  - Type: PT_DYNAMIC\n    VAddr: 0x1010\n    FirstSec: .dynamic\n    LastSec: .dynamic\n";

Read Built(const TempDir& t, const std::string& yaml) {
  WriteAll(t / "lib.yaml", yaml);
  EXPECT_EQ(RunCommand("yaml2obj-19 '" + t / "lib.yaml" + "' -o '" + t / "libx.so" + "'"), 0);
  return ReadFile(t / "libx.so");
}

TEST(LoaderView, AnOrdinaryTableIsReadWithoutNotes) {
  TempDir t;
  Read r = Built(t, Yaml("", "11", "", kDynamicSegment));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.model->has_dynamic);
  EXPECT_THAT(r.model->needed, ElementsAre("libc.so.0"));
  EXPECT_THAT(r.model->warnings, IsEmpty());
}

// Real MIPS router binaries: PT_DYNAMIC reaches past DT_NULL into other bytes. ld.so stops
// at DT_NULL (elf/get-dynamic-info.h), and so does the reader.
TEST(LoaderView, DtNullEndsTheTableHoweverLargePtDynamicIs) {
  TempDir t;
  const std::string junk =
      "  - Name: .junk\n    Type: SHT_PROGBITS\n    Flags: [ SHF_ALLOC ]\n"
      "    Content: '0100000000000000ffffffffffffffff7777777777777777'\n";
  Read r =
      Built(t, Yaml("", "11", junk,
                    "  - Type: PT_DYNAMIC\n    VAddr: 0x1010\n    FirstSec: .dynamic\n    LastSec: .junk\n"));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_THAT(r.model->needed, ElementsAre("libc.so.0"));
  EXPECT_THAT(r.model->warnings, IsEmpty());
}

// glibc never reads DT_STRSZ: the name past it is read, and the lie is a note.
TEST(LoaderView, ALyingDtStrszIsANoteNotAVerdict) {
  TempDir t;
  Read r = Built(t, Yaml("", "1", "", kDynamicSegment));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_THAT(r.model->needed, ElementsAre("libc.so.0"));
  ASSERT_EQ(r.model->warnings.size(), 1u);
  EXPECT_THAT(r.model->warnings[0], HasSubstr("DT_STRSZ (1)"));
}

// ld.so reads no section headers: a table past the end of the file or e_shentsize 0 leaves
// the dependencies readable.
TEST(LoaderView, BrokenSectionHeadersLeaveTheDependenciesReadable) {
  for (const std::string header : {"  EShOff: 0x7fffffff\n", "  EShEntSize: 0\n"}) {
    TempDir t;
    Read r = Built(t, Yaml(header, "11", "", kDynamicSegment));
    ASSERT_TRUE(r.ok) << header << r.error;
    EXPECT_THAT(r.model->needed, ElementsAre("libc.so.0")) << header;
    ASSERT_EQ(r.model->warnings.size(), 1u) << header;
    EXPECT_THAT(r.model->warnings[0], HasSubstr("section headers cannot be read")) << header;
  }
}

// Without PT_DYNAMIC ld.so reads no dynamic table: a .dynamic section gives no dependency.
TEST(LoaderView, WithoutPtDynamicTheSectionTableGivesNoDependencies) {
  TempDir t;
  Read r = Built(t, Yaml("", "11", "", ""));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_FALSE(r.model->has_dynamic);
  EXPECT_THAT(r.model->needed, IsEmpty());
  ASSERT_EQ(r.model->warnings.size(), 1u);
  EXPECT_THAT(r.model->warnings[0], HasSubstr("no PT_DYNAMIC"));
}

// A table that runs to the end of its segment without DT_NULL is one ld.so reads past.
TEST(LoaderView, ATableWithoutDtNullInItsSegmentIsBroken) {
  TempDir t;
  std::string yaml = Yaml("", "11", "", kDynamicSegment);
  yaml.replace(yaml.find("      - Tag: DT_NULL\n        Value: 0\n"), 38, "");
  Read r = Built(t, yaml);
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.error, HasSubstr("no DT_NULL"));
}

// Repeated DT_NEEDED entries are one dependency (ld.so loads a name once), stored once.
TEST(LoaderView, RepeatedNeededNamesAreKeptOnce) {
  TempDir t;
  std::string entries;
  for (int i = 0; i < 100; ++i) entries += "      - Tag: DT_NEEDED\n        Value: 1\n";
  std::string yaml = Yaml("", "11", "", kDynamicSegment);
  yaml.insert(yaml.find("      - Tag: DT_NULL"), entries);
  Read r = Built(t, yaml);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_THAT(r.model->needed, ElementsAre("libc.so.0"));
  ASSERT_EQ(r.model->warnings.size(), 1u);
  EXPECT_THAT(r.model->warnings[0], HasSubstr("100 DT_NEEDED entries repeat"));
}

// objcopy --only-keep-debug: what -dbgsym packages install under /usr/lib/debug.
TEST(LoaderView, ASeparateDebugFileIsRecognisedNotMalformed) {
  TempDir t;
  ASSERT_EQ(RunCommand("cd '" + t.path() +
                       "' && printf 'int f(void){return 1;}\\n' > a.c && gcc -g -shared -fPIC -o liba.so a.c "
                       "-Wl,-soname,liba.so.1 && objcopy --only-keep-debug liba.so liba.debug"),
            0);
  Read r = ReadFile(t / "liba.debug");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.model->separate_debug);
  EXPECT_EQ(r.model->kind_name(), "elf-debug-info");
  EXPECT_FALSE(r.model->has_dynamic);
  EXPECT_THAT(r.model->needed, IsEmpty());
  EXPECT_THAT(r.model->warnings, IsEmpty());
  Read lib = ReadFile(t / "liba.so");
  ASSERT_TRUE(lib.ok) << lib.error;
  EXPECT_FALSE(lib.model->separate_debug);
  EXPECT_EQ(lib.model->soname, "liba.so.1");
}

}  // namespace
}  // namespace rocm_audit::testing
