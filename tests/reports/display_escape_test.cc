// EscapeForDisplay (reports/display_escape.h): every string a terminal would be shown from
// the report, findings and facts alike, is display text before the text report and --tree
// render it; the renderers' own colours are all that is left of ESC.
#include "reports/display_escape.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "reports/closure_tree.h"
#include "reports/text_report.h"
#include "tests/support/sample_report.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;

const std::string kEvil = "libc.so.6\x1b[2K\rrocm-audit: 0 files audited\x07\xfe";
const std::string kShown = "libc.so.6\\x1b[2K\\x0drocm-audit: 0 files audited\\x07\\xfe";

// The bytes left once the renderer's own SGR sequences (ESC [ digits m) are taken out.
std::string WithoutColours(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\x1b' && i + 1 < text.size() && text[i + 1] == '[') {
      size_t end = text.find_first_not_of("0123456789;", i + 2);
      if (end != std::string::npos && text[end] == 'm') {
        i = end;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

bool HasControl(const std::string& text) {
  for (unsigned char c : text)
    if ((c < 0x20 && c != '\n') || c == 0x7f || c >= 0xf8) return true;
  return false;
}

Report EvilReport() {
  Report r = SampleReport();
  r.findings[0].file = "/p/lib/" + kEvil;
  r.findings[0].message = "needs " + kEvil;
  r.findings[0].hint = "ship " + kEvil;
  r.findings[0].fields["library"] = kEvil;
  r.findings[0].fields["files_by_soname"] = {{kEvil, {kEvil}}};
  FileFacts f;
  f.path = "/p/bin/app";
  f.kind = "elf-executable";
  f.elf.emplace();
  f.elf->needed = {kEvil};
  f.closure.emplace();
  f.closure->unresolved = {kEvil};
  f.closure->nodes = {{f.path, "", {{kEvil, -1, ""}}}};
  r.files.push_back(f);
  return r;
}

TEST(DisplayEscape, TextAndTreeWriteNoControlOfTheReportsNames) {
  Report r = EvilReport();
  EscapeForDisplay(&r);
  EXPECT_EQ(r.findings[0].fields["library"], kShown);
  EXPECT_TRUE(r.findings[0].fields["files_by_soname"].contains(kShown));
  EXPECT_EQ(r.files.back().elf->needed[0], kShown);
  for (bool color : {false, true}) {
    TextOptions o;
    o.color = color;
    const std::string text = RenderText(r, o);
    EXPECT_FALSE(HasControl(WithoutColours(text))) << text;
    EXPECT_THAT(text, HasSubstr("needs " + kShown));
  }
  const std::string tree = RenderClosureTree(r.files.back());
  EXPECT_FALSE(HasControl(tree)) << tree;
  EXPECT_THAT(tree, HasSubstr(kShown + " not found"));
}

TEST(DisplayEscape, NamesOfNormalTreesAreUnchanged) {
  Report r = SampleReport();
  const std::string before = RenderText(r, TextOptions{});
  EscapeForDisplay(&r);
  EXPECT_EQ(RenderText(r, TextOptions{}), before);
}

}  // namespace
}  // namespace rocm_audit::testing
