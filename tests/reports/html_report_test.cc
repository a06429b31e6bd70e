// The HTML report: one page that loads nothing, escapes every byte it did not write, marks
// accepted findings, filters from the URL fragment, and draws the GPU target matrix.
// tests/cli/html_chromium_test.cc opens the demo tree's page in a real browser.
#include "reports/html_report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>

#include "tests/support/sample_report.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

size_t Occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The part of the page between the first `from` and the next `to` after it.
std::string Between(const std::string& page, const std::string& from, const std::string& to) {
  size_t start = page.find(from);
  if (start == std::string::npos) return "";
  size_t end = page.find(to, start);
  return page.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

TEST(HtmlReport, LoadsNothingFromAnywhere) {
  const std::string page = RenderHtml(GoldenReport());
  for (const char* external : {"src=\"http", "href=\"http", "url(http", "@import", "<link", " src=", "url(",
                               "http:", "https:", "//fonts", "fetch(", "XMLHttpRequest", "import("})
    EXPECT_THAT(page, Not(HasSubstr(external))) << external;
  // One inline style, one inline script, and a policy that admits only those (by hash).
  EXPECT_EQ(Occurrences(page, "<style>"), 1u);
  EXPECT_EQ(Occurrences(page, "<script"), 1u);
  EXPECT_EQ(Occurrences(page, "<script>"), 1u);
  std::smatch csp;
  ASSERT_TRUE(std::regex_search(
      page, csp, std::regex("<meta http-equiv=\"Content-Security-Policy\" content=\"([^\"]*)\">")));
  EXPECT_TRUE(std::regex_search(csp[1].str(),
                                std::regex("^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]{43}='; "
                                           "script-src 'sha256-[A-Za-z0-9+/]{43}='; base-uri 'none'; "
                                           "form-action 'none'$")))
      << csp[1];
  EXPECT_LT(page.find("Content-Security-Policy"), page.find("<style>"));
}

TEST(HtmlReport, EscapesMarkupAndShowsBytesThatAreNotUtf8) {
  Report r = GoldenReport();
  Finding& f = r.findings[0];
  f.message = "undefined symbol <script>alert(1)</script> & \"quoted\" 'single'";
  f.hint = "</td></tr></table><img src=x onerror=alert(2)>";
  // Invalid UTF-8: a stray continuation byte, 0xff, a truncated sequence, an overlong '/', a
  // surrogate, a code point past U+10FFFF; a control character; then valid 2-, 3-, 4-byte ones.
  f.file = std::string("/p/lib/lib\x80\xff\xe2\x82-\xc0\xaf-\xed\xa0\x80-\xf4\x90\x80\x80-\x01-") +
           "\xc3\xa9\xe2\x82\xac\xf0\x9f\x94\xa5\".so";
  r.inputs.paths = {"/p/<b>bold</b>"};
  const std::string page = RenderHtml(r);
  EXPECT_EQ(Occurrences(page, "<script"), 1u);  // the page's own, only
  EXPECT_THAT(page, Not(HasSubstr("<img")));
  EXPECT_THAT(page, Not(HasSubstr("<b>bold")));
  EXPECT_THAT(page, HasSubstr("undefined symbol &lt;script&gt;alert(1)&lt;/script&gt; &amp; "
                              "&quot;quoted&quot; &#39;single&#39;"));
  EXPECT_THAT(page, HasSubstr("&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;&lt;img src=x onerror=alert(2)&gt;"));
  // Each byte that is not UTF-8, and the control, as \xNN: distinct names stay distinct.
  const std::string file =
      "/p/lib/lib\\x80\\xff\\xe2\\x82-\\xc0\\xaf-\\xed\\xa0\\x80-\\xf4\\x90\\x80\\x80-\\x01-"
      "\xc3\xa9\xe2\x82\xac\xf0\x9f\x94\xa5&quot;.so";
  EXPECT_THAT(page, HasSubstr("data-file=\"" + file + "\""));
  EXPECT_THAT(page, HasSubstr("<code>" + file + "</code>"));
  // The whole page is well-formed UTF-8: nlohmann's strict dump throws otherwise.
  EXPECT_NO_THROW(nlohmann::json(page).dump());
}

TEST(HtmlReport, EscapeKeepsUtf8AndEscapesTheFiveCharacters) {
  EXPECT_EQ(HtmlEscape("a<b>&\"'c"), "a&lt;b&gt;&amp;&quot;&#39;c");
  EXPECT_EQ(HtmlEscape("gfx90a:xnack+ \xc3\xa9\xe2\x82\xac\xf0\x9f\x94\xa5\t\n"),
            "gfx90a:xnack+ \xc3\xa9\xe2\x82\xac\xf0\x9f\x94\xa5\t\n");
  // Controls and bytes that are not UTF-8 shown as the text report shows them: distinct
  // names stay distinct, and no character XML forbids is written.
  EXPECT_EQ(HtmlEscape(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(HtmlEscape("\xc2\x85"), "\\u0085");  // C1 control NEL
  EXPECT_EQ(HtmlEscape("\xe2\x82"), "\\xe2\\x82");
  EXPECT_EQ(HtmlEscape("lib\xfe.so\x1b[2K\r"), "lib\\xfe.so\\x1b[2K\\x0d");
  EXPECT_EQ(HtmlEscape(""), "");
}

TEST(HtmlReport, AcceptedFindingsAreMarkedAndHiddenUntilAsked) {
  const std::string page = RenderHtml(GoldenReport());
  // GoldenReport: five findings, one accepted by a waiver.
  EXPECT_EQ(Occurrences(page, "<tr class=\"finding "), 5u);
  EXPECT_EQ(Occurrences(page, " data-accepted=\"waiver\" hidden>"), 1u);
  std::string row = Between(page, "<tr class=\"finding error accepted\"", "</tr>");
  ASSERT_FALSE(row.empty());
  EXPECT_THAT(row, HasSubstr("ps_getpid"));
  EXPECT_THAT(row, HasSubstr("<span class=\"tag\">accepted</span>"));
  EXPECT_THAT(row, HasSubstr("accepted by waiver <code>/p/rocm-audit.suppress:2</code>: gdb provides ps_*"));
  EXPECT_THAT(page,
              HasSubstr("<input type=\"checkbox\" id=\"show-accepted\"> show 1 accepted finding</label>"));
  // Without a script the count is already right: the accepted one is hidden.
  EXPECT_THAT(page, HasSubstr("<span id=\"visible-count\">4 of 5 findings</span>"));
}

TEST(HtmlReport, TheSummaryHasTheTextReportsFacts) {
  const std::string header = Between(RenderHtml(GoldenReport()), "<header>", "</header>");
  EXPECT_THAT(header, HasSubstr("<b>3</b>files audited"));
  EXPECT_THAT(header, HasSubstr("<b>3</b>errors"));
  EXPECT_THAT(header, HasSubstr("<b>1</b>warning<"));
  EXPECT_THAT(header, HasSubstr("<b>0</b>notes"));
  EXPECT_THAT(header, HasSubstr("<b>1</b>accepted"));
  EXPECT_THAT(header, HasSubstr("<b>1</b>check disabled"));
  EXPECT_THAT(header,
              HasSubstr("3 files audited (walked: 1 compressed-offload-bundle, 3 elf, 2 other); 3 errors, 1 "
                        "warning, 0 notes in 2 files; accepted, not counted: 1 finding by waivers; 1 check "
                        "disabled: <code>mixed-soname</code>"));
}

TEST(HtmlReport, RootCausesMostSevereFirstLinkToTheirFindings) {
  const std::string causes = Between(RenderHtml(GoldenReport()), "<section id=\"causes\">", "</section>");
  size_t undefined = causes.find("href=\"#check=undefined-symbol\""),
         unresolved = causes.find("href=\"#check=unresolved-library\""),
         rpath = causes.find("href=\"#check=rpath-absolute-outside\"");
  ASSERT_NE(undefined, std::string::npos) << causes;
  ASSERT_NE(unresolved, std::string::npos);
  ASSERT_NE(rpath, std::string::npos);
  EXPECT_LT(unresolved, rpath);  // errors before the warning
  EXPECT_LT(undefined, rpath);
  EXPECT_THAT(causes, HasSubstr("libgcc_s.so.1 not found, needed by 2 files"));
  EXPECT_THAT(causes, Not(HasSubstr("ps_getpid")));  // accepted: no cause
}

TEST(HtmlReport, TheFilterComesFromTheFragmentOnLoad) {
  const std::string page = RenderHtml(GoldenReport());
  const std::string script = Between(page, "<script>", "</script>");
  for (const char* piece : {"location.hash", "new URLSearchParams(", "p.get('check')", "p.get('severity')",
                            "p.get('file')", "p.get('accepted')", "'hashchange'", "r.hidden = !show",
                            "' of ' + rows.length + ' findings'", "history.replaceState"})
    EXPECT_THAT(script, HasSubstr(piece)) << piece;
  // Applied on load: the script's last statement runs it.
  EXPECT_THAT(script, HasSubstr("  fromFragment();\n})();"));
  for (const char* id : {"id=\"filter-check\"", "id=\"filter-severity\"", "id=\"filter-file\"",
                         "id=\"show-accepted\"", "id=\"visible-count\"", "id=\"findings\""})
    EXPECT_THAT(page, HasSubstr(id)) << id;
  // Every check with findings is a choice, with its count (the accepted one included).
  EXPECT_THAT(page, HasSubstr("<option value=\"undefined-symbol\">undefined-symbol (2)</option>"));
  EXPECT_THAT(page, HasSubstr("<option value=\"unresolved-library\">unresolved-library (2)</option>"));
  EXPECT_THAT(
      page,
      HasSubstr(
          "<tr class=\"finding warning\" data-check=\"rpath-absolute-outside\" data-severity=\"warning\" "
          "data-file=\"/p/lib/libA.so.1\">"));
}

TEST(HtmlReport, TheArchMatrixMarksGenericAndIsaCompatRoutes) {
  Report r = GoldenReport();
  FileFacts lib = r.files[0];
  lib.path = "/p/lib/libgeneric.so.1";
  lib.device->targets = {"gfx10-3-generic"};
  lib.device->served = {{"gfx1030", Served::kGeneric}, {"gfx1031", Served::kGeneric}};
  r.files.push_back(lib);
  FileFacts compat = r.files[0];
  compat.path = "/p/lib/libccob.so.1";
  compat.device->targets = {"gfx1030"};
  compat.device->served = {{"gfx1030", Served::kAllModes}, {"gfx1031", Served::kIsaCompat}};
  r.files.push_back(compat);
  const std::string matrix = Between(RenderHtml(r), "<section id=\"arch\">", "</section>");
  auto row = [&](const std::string& name) { return Between(matrix, name, "</tr>"); };
  EXPECT_THAT(row("<code>/p/lib/libgeneric.so.1</code>"),
              HasSubstr("<td class=\"generic\" title=\"gfx1031: through its generic target\">g</td>"))
      << matrix;
  EXPECT_THAT(row("<code>/p/lib/libccob.so.1</code>"),
              HasSubstr("<td class=\"compat\" title=\"gfx1031: only through ISA compatibility\">c</td>"))
      << matrix;
  EXPECT_THAT(row("<code>/p/lib/libccob.so.1</code>"),
              HasSubstr("<td class=\"all\" title=\"gfx1030: every mode\">"))
      << matrix;
}

TEST(HtmlReport, TheArchMatrixMarksAllModesOneModeAndNone) {
  Report r = GoldenReport();
  // A long name stays whole; a plain target serves every mode.
  FileFacts lib = r.files[0];
  lib.path = "/p/lib/rocm/very/deep/directory/with/a/long/name/for/the/library/libhipblaslt-device.so.0";
  lib.device->targets = {"gfx1100", "gfx90a:xnack-", "gfx90a:xnack+"};
  r.files.push_back(lib);
  FileFacts co = r.files[2];
  co.path = "/p/share/co/kernels_gfx906.co";
  co.device->targets = {"gfx906"};
  r.files.push_back(co);
  const std::string matrix = Between(RenderHtml(r), "<section id=\"arch\">", "</section>");
  ASSERT_FALSE(matrix.empty());
  // Columns in generation order.
  EXPECT_THAT(matrix, HasSubstr("<th>gfx906</th><th>gfx90a</th><th>gfx1100</th>"));
  auto row = [&](const std::string& name) { return Between(matrix, name, "</tr>"); };
  EXPECT_THAT(
      row("<code>/p/lib/libA.so.1</code>"),
      HasSubstr("<td class=\"none\" title=\"gfx906: no code\">&#xB7;</td><td class=\"some\" title=\"gfx90a: "
                "only :xnack+\">:xnack+</td><td class=\"none\""))
      << matrix;
  EXPECT_THAT(row("<code>" + lib.path + "</code>"),
              HasSubstr("<td class=\"some\" title=\"gfx90a: only :xnack+ :xnack-\">:xnack+ :xnack-</td><td "
                        "class=\"all\" title=\"gfx1100: every mode\">&#x25CF;</td>"))
      << matrix;
  // Standalone code objects: one row per directory, the union of its files, each named.
  const std::string dir = row("<code>/p/share/co/</code> (2 files)");
  EXPECT_THAT(dir,
              HasSubstr("<li><code>kernels_gfx1100.co</code></li><li><code>kernels_gfx906.co</code></li>"))
      << matrix;
  EXPECT_THAT(
      dir, HasSubstr("<td class=\"all\" title=\"gfx906: every mode\">&#x25CF;</td><td class=\"none\" "
                     "title=\"gfx90a: no code\">&#xB7;</td><td class=\"all\" title=\"gfx1100: every mode\">"))
      << matrix;
  EXPECT_EQ(Occurrences(matrix, "<tr><th class=\"file\" scope=\"row\">"), 3u);
  for (const char* legend :
       {"every xnack/sramecc mode", "that feature mode only", "no code for the processor"})
    EXPECT_THAT(matrix, HasSubstr(legend)) << legend;
}

// Issue 50: a diff's first screen is the verdict, then who is hit; a long list of removed
// symbols shows a line each under its scope, the rest folded with the number of symbols.
TEST(HtmlReport, ADiffShowsTheVerdictThenWhoIsHitWithLongListsFolded) {
  Report r;
  PackageVerdict v;
  v.package = "libx1";
  v.source = "x";
  v.needs = {"needs a SONAME bump: libx.so.1 -> libx.so.2"};
  v.severity = Severity::kError;
  r.verdicts.push_back(v);
  Finding f;
  f.check = "symbols-removed";
  f.file = "usr/lib/libx.so.1";
  f.fields["soname"] = "libx.so.1";
  nlohmann::ordered_json names = nlohmann::ordered_json::array();
  for (int i = 0; i < 20; ++i) names.push_back("ns::f" + std::to_string(i) + "()");
  f.fields["removed_by_scope"] = {{{"scope", "ns"}, {"names", names}}};
  f.fields["hit"] = nlohmann::ordered_json::array({"usr/bin/app"});
  r.findings.push_back(f);
  const std::string page = RenderHtml(r);
  const size_t verdict = page.find("id=\"verdict-section\""), sides = page.find("id=\"sides-section\""),
               causes = page.find("id=\"causes\"");
  ASSERT_NE(verdict, std::string::npos);
  ASSERT_NE(sides, std::string::npos);
  EXPECT_LT(verdict, sides);
  EXPECT_LT(sides, causes);
  EXPECT_THAT(page,
              HasSubstr("<span class=\"sev error\">error</span></td><td class=\"file\"><code>libx1</code>"
                        "<div class=\"hint\">(source x)</div>"));
  // One heading and eleven names shown, nine folded.
  EXPECT_THAT(page,
              HasSubstr("<div class=\"scope\">ns</div><div class=\"name\"><code>ns::f0()</code></div>"));
  EXPECT_THAT(page, HasSubstr("<details><summary>9 more symbols</summary>"));
}

TEST(HtmlReport, AReportWithoutFindingsOrDeviceCode) {
  Report r;
  r.inputs.paths = {"/empty"};
  const std::string page = RenderHtml(r);
  EXPECT_THAT(page, HasSubstr("<span id=\"visible-count\">0 of 0 findings</span>"));
  EXPECT_THAT(page, HasSubstr("Nothing to fix"));
  EXPECT_THAT(page, Not(HasSubstr("<section id=\"arch\">")));
}

}  // namespace
}  // namespace rocm_audit::testing
