// The HTML report in a real browser: the demo tree's page, made by the command, opened in
// Debian's headless Chromium. The script runs (its Content-Security-Policy hash admits it),
// the filter given in the URL fragment hides the other rows on load, the page logs nothing
// to the console, and it renders to a screenshot.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;

struct Browser {
  int status = -1;
  std::string stdout_text;  ///< --dump-dom: the DOM after the page's scripts ran
  std::string stderr_text;  ///< --enable-logging=stderr: Chromium's log, the page's console included
};

// One headless Chromium run on `url` with `mode` (--dump-dom, --screenshot=...), a fresh
// profile each time, no network services, bounded by timeout(1).
Browser OpenInChromium(const std::string& url, const std::string& mode) {
  TempDir profile, logs;
  Browser b;
  b.status = RunCommand(std::string("timeout 60 ") + ROCM_AUDIT_CHROMIUM +
                            " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run"
                            " --disable-background-networking --disable-component-update --disable-sync"
                            " --user-data-dir=" +
                            profile.path() + " --enable-logging=stderr --v=0 " + mode + " '" + url + "' 2>" +
                            logs / "stderr",
                        &b.stdout_text);
  b.stderr_text = ReadAll(logs / "stderr");
  return b;
}

// What the page said on the console. Chromium logs every console message of a page, whatever
// its level (console.log, .warn, .error, an uncaught exception, a CSP refusal), as one
// "INFO:CONSOLE(<line>)" or "INFO:CONSOLE:<line>" log line with the message and its source,
// so the level cannot be read from the line: a page that logs nothing has none of them.
std::vector<std::string> ConsoleLines(const std::string& log) {
  std::vector<std::string> out;
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);)
    if (line.find(":CONSOLE") != std::string::npos) out.push_back(line);
  return out;
}

struct Rows {
  size_t total = 0, visible = 0;
  std::set<std::string> visible_checks;
};

// The findings table's rows in a dumped DOM; a row the filter hides carries `hidden`.
Rows FindingRows(const std::string& dom) {
  Rows rows;
  static const std::regex row("<tr class=\"finding[^\"]*\"([^>]*)>");
  static const std::regex check("data-check=\"([^\"]*)\"");
  for (auto it = std::sregex_iterator(dom.begin(), dom.end(), row); it != std::sregex_iterator(); ++it) {
    const std::string attributes = (*it)[1].str();
    ++rows.total;
    if (attributes.find(" hidden=\"\"") != std::string::npos) continue;
    ++rows.visible;
    std::smatch m;
    if (std::regex_search(attributes, m, check)) rows.visible_checks.insert(m[1].str());
  }
  return rows;
}

std::string VisibleCount(const std::string& dom) {
  std::smatch m;
  return std::regex_search(dom, m, std::regex("<span id=\"visible-count\">([^<]*)</span>")) ? m[1].str() : "";
}

class HtmlChromium : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    page_ = new TempDir;
    std::string said;
    ASSERT_EQ(RunCommand(std::string(ROCM_AUDIT_BINARY) +
                             " --no-progress --ld-so-conf /nonexistent --fail-on none --format html -o " +
                             *page_ / "report.html " + ROCM_AUDIT_DEMO_TREE + " 2>&1",
                         &said),
              0)
        << said;
  }
  static void TearDownTestSuite() {
    delete page_;
    page_ = nullptr;
  }
  static std::string Url(const std::string& fragment = "") {
    return "file://" + *page_ / "report.html" + fragment;
  }
  static void ExpectSilentConsole(const Browser& b) {
    for (const std::string& line : ConsoleLines(b.stderr_text)) ADD_FAILURE() << "console: " << line;
  }
  static TempDir* page_;
};
TempDir* HtmlChromium::page_ = nullptr;

// The console check is not blind: a page that logs an error and throws is seen, in the
// format ConsoleLines reads.
TEST_F(HtmlChromium, TheConsoleCheckSeesADeliberateErrorAndAnUncaughtException) {
  TempDir t;
  WriteAll(t / "noisy.html",
           "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>noisy</title></head><body>\n"
           "<script>console.error('deliberate error'); null.property;</script></body></html>\n");
  Browser b = OpenInChromium("file://" + t / "noisy.html", "--dump-dom");
  ASSERT_EQ(b.status, 0) << b.stderr_text;
  std::vector<std::string> lines = ConsoleLines(b.stderr_text);
  ASSERT_EQ(lines.size(), 2u) << b.stderr_text;
  EXPECT_THAT(lines[0], HasSubstr("\"deliberate error\", source: file://"));
  EXPECT_THAT(lines[1], HasSubstr("Uncaught TypeError"));
}

TEST_F(HtmlChromium, UnfilteredEveryFindingShows) {
  Browser b = OpenInChromium(Url(), "--dump-dom");
  ASSERT_EQ(b.status, 0) << b.stderr_text;
  ExpectSilentConsole(b);
  Rows rows = FindingRows(b.stdout_text);
  EXPECT_EQ(rows.total, 26u);
  EXPECT_EQ(rows.visible, 26u);
  EXPECT_EQ(VisibleCount(b.stdout_text), "26 of 26 findings");
  EXPECT_THAT(b.stdout_text, HasSubstr("<section id=\"arch\">"));
  EXPECT_THAT(b.stdout_text, HasSubstr("libMIOpen.so.1"));
}

TEST_F(HtmlChromium, TheFragmentFiltersOnLoad) {
  Browser b = OpenInChromium(Url("#check=undefined-symbol"), "--dump-dom");
  ASSERT_EQ(b.status, 0) << b.stderr_text;
  ExpectSilentConsole(b);
  Rows rows = FindingRows(b.stdout_text);
  EXPECT_EQ(rows.total, 26u);
  EXPECT_EQ(rows.visible, 5u);
  EXPECT_EQ(rows.visible_checks, std::set<std::string>{"undefined-symbol"});
  EXPECT_EQ(VisibleCount(b.stdout_text), "5 of 26 findings");
  // The select shows the filter.
  EXPECT_THAT(b.stdout_text, HasSubstr("<option value=\"undefined-symbol\" selected"))
      << "the check select does not show the fragment's check";

  // Every key together: the five are errors in libMIOpen, none is a warning.
  b = OpenInChromium(Url("#check=undefined-symbol&severity=error&file=libMIOpen"), "--dump-dom");
  ExpectSilentConsole(b);
  EXPECT_EQ(FindingRows(b.stdout_text).visible, 5u);
  EXPECT_EQ(VisibleCount(b.stdout_text), "5 of 26 findings");
  b = OpenInChromium(Url("#check=undefined-symbol&severity=warning"), "--dump-dom");
  ExpectSilentConsole(b);
  EXPECT_EQ(FindingRows(b.stdout_text).visible, 0u);
  EXPECT_EQ(VisibleCount(b.stdout_text), "0 of 26 findings");
}

TEST_F(HtmlChromium, ItRendersToAScreenshot) {
  TempDir t;
  const std::string png = t / "page.png";
  Browser b = OpenInChromium(Url(), "--screenshot=" + png + " --window-size=1400,2000");
  ASSERT_EQ(b.status, 0) << b.stderr_text;
  ExpectSilentConsole(b);
  const std::string image = ReadAll(png);
  ASSERT_GE(image.size(), 24u) << "no screenshot at " << png;
  EXPECT_EQ(image.substr(0, 8), "\x89PNG\r\n\x1a\n");
  // IHDR: the window's size, big-endian.
  auto u32 = [&](size_t at) {
    return uint32_t(uint8_t(image[at])) << 24 | uint32_t(uint8_t(image[at + 1])) << 16 |
           uint32_t(uint8_t(image[at + 2])) << 8 | uint32_t(uint8_t(image[at + 3]));
  };
  EXPECT_EQ(u32(16), 1400u);
  EXPECT_EQ(u32(20), 2000u);
  // A blank 1400x2000 page compresses to a few kB; the report's text and colours do not.
  EXPECT_GT(image.size(), 100u * 1000) << image.size();
}

}  // namespace
}  // namespace rocm_audit::testing
