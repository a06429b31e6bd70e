// Issue 50 item 3: Debian's own ABI records. DEBIAN/symbols and DEBIAN/shlibs read as dpkg
// reads them, and compared as dpkg-gensymbols compares them, on libds1's .debs
// (fixtures/make_diff_pairs.sh, debsyms/).
#include "diff/debian_symbols.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "diff/diff.h"
#include "tests/diff/findings_of.h"

namespace rocm_audit::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using Json = nlohmann::ordered_json;

const std::string kDebs = std::string(ROCM_AUDIT_DIFF_PAIRS) + "/debsyms/";

TEST(DebianSymbols, ParsesLibrariesTagsQuotedNamesAndMissingLines) {
  const auto libs = ParseDebSymbols(
      "# a comment\n"
      "libfoo.so.1 libfoo1 #MINVER#\n"
      "| libfoo1-extra (>= 1.1)\n"
      "* Build-Depends-Package: libfoo-dev\n"
      " foo@FOO_1.0 1.0\n"
      " (optional|arch=amd64)bar@Base 1.1 1\n"
      " (c++)\"ns::f(int, char)@Base\" 1.2\n"
      " (symver)FOO_2.0 2.0\n"
      "#MISSING: 2.1# gone@Base 0.9\n"
      "libbar.so.2 libbar2 (>= 2.0)\n"
      " baz@Base 2.0\n");
  ASSERT_EQ(libs.size(), 2u);
  EXPECT_EQ(libs[0].soname, "libfoo.so.1");
  EXPECT_EQ(libs[0].package, "libfoo1");
  ASSERT_EQ(libs[0].symbols.size(), 5u);
  EXPECT_EQ(libs[0].symbols[0].name, "foo@FOO_1.0");
  EXPECT_EQ(libs[0].symbols[0].minver, "1.0");
  EXPECT_TRUE(libs[0].symbols[1].optional);
  EXPECT_TRUE(libs[0].symbols[1].other_arch);
  EXPECT_EQ(libs[0].symbols[1].name, "bar@Base");
  EXPECT_TRUE(libs[0].symbols[2].cxx);
  EXPECT_EQ(libs[0].symbols[2].name, "ns::f(int, char)@Base");
  EXPECT_EQ(libs[0].symbols[2].minver, "1.2");
  EXPECT_TRUE(libs[0].symbols[3].symver);
  EXPECT_EQ(libs[0].symbols[3].name, "FOO_2.0");
  EXPECT_TRUE(libs[0].symbols[4].deprecated);
  EXPECT_EQ(libs[0].symbols[4].name, "gone@Base");
  EXPECT_EQ(libs[1].package, "libbar2");
  ASSERT_EQ(libs[1].symbols.size(), 1u);

  const auto shlibs =
      ParseDebShlibs("libbsd 0 libbsd0 (>= 0.11.7)\nudeb: libbsd 0 libbsd0-udeb (>= 0.11.7)\n");
  ASSERT_EQ(shlibs.size(), 2u);
  EXPECT_EQ(shlibs[0].library, "libbsd");
  EXPECT_EQ(shlibs[0].soversion, "0");
  EXPECT_EQ(shlibs[0].package, "libbsd0");
  EXPECT_EQ(shlibs[1].type, "udeb");
  EXPECT_EQ(DebSymbolName("f@@V_1"), "f@V_1");
  EXPECT_EQ(DebSymbolName("f@V_1"), "f@V_1");
  EXPECT_EQ(DebSymbolName("f"), "f@Base");
  EXPECT_TRUE(DpkgNeverLists("_edata"));
  EXPECT_TRUE(DpkgNeverLists("_restgpr_14_x"));
  EXPECT_FALSE(DpkgNeverLists("_restgpr_13"));
}

Report DiffDebs(const std::string& from, const std::string& to) {
  AuditRequest request;
  request.ld_so_conf = "/nonexistent";
  request.no_base = true;
  Report report;
  std::string error;
  EXPECT_TRUE(Diff(request, {kDebs + from}, {kDebs + to}, &report, &error)) << error;
  return report;
}

// What dpkg-gensymbols would say of NEW's symbols file: ds_drop lost, ds_new new; the (c++)
// entry matches the demangled export, (optional) and #MISSING ones are not required.
TEST(DebianSymbols, ASymbolsFileIsHeldAgainstItsLibrary) {
  const Report r = DiffDebs("old/libds1_1.0-1_amd64.deb", "new/libds1_2.0-1_amd64.deb");
  const auto missing = FindingsOf(r, "debian-symbols-missing");
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0]->file, "usr/lib/x86_64-linux-gnu/libds.so.1");
  EXPECT_EQ(missing[0]->fields["package"], "libds1");
  EXPECT_EQ(missing[0]->fields["missing"], Json::array({"ds_drop@Base 0.9"}));
  const auto unlisted = FindingsOf(r, "debian-symbols-unlisted");
  ASSERT_EQ(unlisted.size(), 1u);
  EXPECT_EQ(unlisted[0]->fields["unlisted"], Json::array({"ds_new@Base"}));
  EXPECT_EQ(unlisted[0]->severity, Severity::kWarning);
  // OLD's file says which version declared the removed symbol.
  const auto removed = FindingsOf(r, "symbols-removed");
  ASSERT_EQ(removed.size(), 1u);
  EXPECT_EQ(removed[0]->fields["declared"],
            Json::parse(R"([{"symbol": "ds_drop", "package": "libds1", "version": "0.9"}])"));
  EXPECT_THAT(removed[0]->message, ::testing::HasSubstr("ds_drop declared by libds1 0.9"));
  EXPECT_THAT(FindingsOf(r, "soname-bump-without-rename"), IsEmpty());
}

TEST(DebianSymbols, ASonameBumpInAPackageThatKeepsItsNameIsAnError) {
  const Report bump = DiffDebs("old/libds1_1.0-1_amd64.deb", "bump/libds1_2.0-1_amd64.deb");
  const auto found = FindingsOf(bump, "soname-bump-without-rename");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0]->severity, Severity::kError);
  EXPECT_EQ(found[0]->file, "usr/lib/x86_64-linux-gnu/libds.so.2");
  EXPECT_EQ(found[0]->fields,
            Json::parse(R"({"package": "libds1", "old_soname": "libds.so.1", "new_soname": "libds.so.2",
                            "expected_package": "libds2"})"));
  EXPECT_THAT(FindingsOf(bump, "debian-symbols-missing"), IsEmpty());
  EXPECT_THAT(FindingsOf(bump, "debian-symbols-unlisted"), IsEmpty());
  // Renamed as Policy names it: the transition is the packager's, no defect.
  const Report renamed = DiffDebs("old/libds1_1.0-1_amd64.deb", "renamed/libds2_2.0-1_amd64.deb");
  EXPECT_THAT(FindingsOf(renamed, "soname-bump-without-rename"), IsEmpty());
  EXPECT_THAT(FindingsOf(renamed, "soname-changed"), ::testing::SizeIs(1));
}

}  // namespace
}  // namespace rocm_audit::testing
