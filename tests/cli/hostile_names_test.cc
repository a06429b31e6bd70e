// Issue 34, names in every format: every control byte (C0, DEL, the 8-bit CSI raw and as
// UTF-8) in SONAMEs, DT_NEEDED, RUNPATHs, file names and bundle entry IDs (names-controls/),
// and HTML/XML syntax in names (names-markup/), each written by each report format as that
// format's syntax requires (fixtures/hostile_names.py, made by make_hostile_tree.sh).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include <gmock/gmock.h>
#include <nlohmann/json.hpp>

#include "tests/support/terminal_output.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using Json = nlohmann::json;

const std::string kControls = ROCM_AUDIT_HOSTILE_TREE "/names-controls";
const std::string kMarkup = ROCM_AUDIT_HOSTILE_TREE "/names-markup";

// The control bytes of names-controls/ as the text report spells them: \xNN for C0, DEL and
// a raw 0x9B (not UTF-8), \u009b for U+009B.
std::vector<std::string> TextSpellings() {
  std::vector<std::string> out;
  char hex[8];
  for (int c = 1; c < 0x20; ++c) {
    snprintf(hex, sizeof hex, "\\x%02x", c);
    out.push_back(hex);
  }
  out.insert(out.end(), {"\\x7f", "\\x9b", "\\u009b"});
  return out;
}

TEST(HostileNames, TextAndTreeShowEveryControlByteEscaped) {
  for (const std::string& color : {"never", "always"}) {
    Output o = RunAudit("--color " + color + " " + kControls);
    EXPECT_EQ(o.status, 1) << o.err;
    EXPECT_EQ(ControlIn(o.out, /*sgr=*/color == "always"), "") << color;
    EXPECT_TRUE(IsUtf8(o.out)) << color;
    for (const std::string& c : TextSpellings()) {
      EXPECT_THAT(o.out, HasSubstr("libn" + c + "[2K.so.1")) << c;    // a DT_NEEDED
      EXPECT_THAT(o.out, HasSubstr("lib/file" + c + "[1m.so")) << c;  // a file name
      EXPECT_THAT(o.out, HasSubstr("/r" + c + "[31m/lib")) << c;      // a RUNPATH entry
      EXPECT_THAT(o.out, HasSubstr("gfx90a" + c)) << c;               // a bundle entry ID
    }
  }
  Output tree = RunAudit("--tree " + kControls + "/lib/libc1b.so " + kControls);
  EXPECT_EQ(ControlIn(tree.out), "");
  EXPECT_THAT(tree.out, HasSubstr("libn\\x1b[2K.so.1"));
}

TEST(HostileNames, MachineFormatsCarryEveryControlByteEscapedForTheirSyntax) {
  TempDir t;
  for (const std::string& format : {"json", "sarif", "gitlab", "junit", "html"}) {
    const std::string file = t / ("report." + format);
    ASSERT_EQ(RunAudit("--format " + format + " -o " + file + " " + kControls).status, 1) << format;
    const std::string report = ReadAll(file);
    EXPECT_EQ(ControlIn(report, false, /*tab=*/true), "") << format;
    EXPECT_TRUE(IsUtf8(report)) << format;
    if (format == "junit" || format == "html") continue;
    const Json parsed = Json::parse(report);  // strict UTF-8, controls as \uNNNN
    EXPECT_THAT(parsed.dump(), HasSubstr("libn\\u001b[2K.so.1")) << format;
  }
  std::string log;
  EXPECT_EQ(RunCommand("'" ROCM_AUDIT_XMLLINT "' --noout '" + t / "report.junit" + "' 2>&1", &log), 0) << log;
  // Each file keeps its own path in JSON: 34 names, 34 paths.
  std::set<std::string> paths;
  const Json json = Json::parse(ReadAll(t / "report.json"));
  for (const Json& f : json["files"])
    if (f["path"].get<std::string>().starts_with("lib/file")) paths.insert(f["path"]);
  EXPECT_EQ(paths.size(), 34u);
  EXPECT_TRUE(paths.count("lib/file\x9b[1m.so") == 0 && paths.count("lib/file\\x9b[1m.so") == 1);
  EXPECT_TRUE(paths.count("lib/file\xc2\x9b[1m.so") == 1);
}

TEST(HostileNames, MarkupInNamesIsEscapedForEachSyntax) {
  TempDir t;
  ASSERT_EQ(RunAudit("--format html -o " + t / "r.html " + kMarkup).status, 1);
  const std::string html = ReadAll(t / "r.html");
  // The report's own script is the only one; no name opens an element or an attribute.
  size_t scripts = 0;
  for (size_t at = html.find("<script"); at != std::string::npos; at = html.find("<script", at + 1))
    ++scripts;
  EXPECT_EQ(scripts, 1u);
  EXPECT_THAT(html, Not(HasSubstr("<img")));
  EXPECT_THAT(html, Not(HasSubstr("\"><script>alert(2)")));
  EXPECT_THAT(html, HasSubstr("lib/&lt;script&gt;alert(1)&lt;script&gt;.so"));
  EXPECT_THAT(html, HasSubstr("lib/a&amp;amp;b&amp;.so"));
  EXPECT_THAT(html, HasSubstr("data-file=\"lib/q&quot;uote"));

  ASSERT_EQ(RunAudit("--format junit -o " + t / "r.xml " + kMarkup).status, 1);
  std::string log;
  EXPECT_EQ(RunCommand("'" ROCM_AUDIT_XMLLINT "' --noout '" + t / "r.xml" + "' 2>&1", &log), 0) << log;
  const std::string junit = ReadAll(t / "r.xml");
  EXPECT_THAT(junit, HasSubstr("c]]&gt;d.so"));
  EXPECT_THAT(junit, HasSubstr("lib]]&gt;&lt;x&gt;&amp;amp;&quot;.so"));

  // A name spelled with the reports' escape stays apart from the byte it spells: each of the
  // 8 broken files keeps a key of its own in every format that keys findings.
  auto malformed_keys = [](const std::string& format, const Json& report) {
    std::set<std::string> keys;
    if (format == "json") {
      for (const Json& f : report["findings"])
        if (f["check"] == "malformed-file") keys.insert(f["key"].get<std::string>());
    } else if (format == "sarif") {
      for (const Json& r : report["runs"][0]["results"])
        if (r["ruleId"] == "malformed-file")
          keys.insert(r["partialFingerprints"]["rocmAuditKey/v1"].get<std::string>());
    } else {
      for (const Json& issue : report)
        if (issue["check_name"] == "malformed-file") keys.insert(issue["fingerprint"].get<std::string>());
    }
    return keys.size();
  };
  for (const std::string& format : {"json", "sarif", "gitlab"}) {
    Output o = RunAudit("--format " + format + " --base-uri " + kMarkup + " " + kMarkup);
    ASSERT_EQ(o.status, 1) << format << o.err;
    EXPECT_EQ(malformed_keys(format, Json::parse(o.out)), 8u) << format;
  }
}

}  // namespace
}  // namespace rocm_audit::testing
