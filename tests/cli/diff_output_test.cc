// Issue 47: `diff` prints through the audit's output path (cli/report_output.h). Names that
// hold controls and bytes that are not UTF-8 (fixtures/make_diff_pairs.sh, names/: a path, a
// SONAME, a symbol, a program's path) reach no terminal or parser raw in any format, and the
// JSON formats keep their bytes, read back by their escapes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "audit/model/byte_text.h"
#include "tests/support/terminal_output.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;
using Json = nlohmann::json;

const std::string kNames = std::string(ROCM_AUDIT_DIFF_PAIRS) + "/names";
const std::string kBad = "\x1b[31m\r\a\x7f\xfe";  // as make_diff_pairs.sh names them

// `rocm-audit diff ARGS` (shell words), its standard output and error apart.
Output RunDiff(const std::string& args) {
  TempDir t;
  Output o;
  o.status = RunCommand("'" ROCM_AUDIT_BINARY "' diff --no-progress --ld-so-conf /nonexistent " + args +
                            " 2>'" + t / "err" + "'",
                        &o.out);
  o.err = ReadAll(t / "err");
  return o;
}

Output DiffNames(const std::string& format) {
  return RunDiff("--format " + format + " " + kNames + "/old " + kNames + "/new");
}

// Every byte of every format: no control a terminal acts on (the text report's own colours
// aside), UTF-8 throughout.
TEST(DiffOutput, NoFormatWritesAControlOrInvalidUtf8OfTheFiles) {
  for (const std::string format : {"text", "json", "sarif", "junit", "gitlab", "html"}) {
    const Output o = DiffNames(format);
    EXPECT_EQ(o.status, 1) << format << o.err;
    EXPECT_EQ(ControlIn(o.out, /*sgr=*/false, /*tab=*/true), "") << format;
    EXPECT_TRUE(IsUtf8(o.out)) << format;
    EXPECT_THAT(o.out, HasSubstr("libx")) << format;  // the report is about those files
  }
  const Output color = RunDiff("--color always " + kNames + "/old " + kNames + "/new");
  EXPECT_EQ(ControlIn(color.out, /*sgr=*/true), "");
  // As the audit's text report shows such names.
  const Output text = DiffNames("text");
  EXPECT_THAT(text.out, HasSubstr("weird\\x1b[31m\\x0d\\x07\\x7f\\xfe"));
  EXPECT_THAT(text.out, HasSubstr("libx\\x1b[31m\\x0d\\x07\\x7f\\xfe.so.1"));
  EXPECT_THAT(text.out, HasSubstr("libgone\\x1b]0;t\\x07.so.1"));
  EXPECT_THAT(text.out, HasSubstr("bin/app\\x1b[31m\\x0d\\x07\\x7f\\xfe"));
}

// Every string of `j`, decoded from the report's lossless text to its bytes.
void Strings(const Json& j, std::set<std::string>* out) {
  if (j.is_string()) out->insert(BytesOfLosslessText(j.get<std::string>()));
  if (!j.is_structured()) return;  // nlohmann iterates a scalar as itself
  for (const Json& v : j) Strings(v, out);
  if (j.is_object())
    for (const auto& [name, v] : j.items()) out->insert(BytesOfLosslessText(name));
}

bool Contains(const std::set<std::string>& strings, const std::string& part) {
  for (const std::string& s : strings)
    if (s.find(part) != std::string::npos) return true;
  return false;
}

TEST(DiffOutput, JsonFormatsKeepTheNamesBytes) {
  for (const std::string format : {"json", "sarif", "gitlab"}) {
    const Output o = DiffNames(format);
    const Json report = Json::parse(o.out);  // strict: valid JSON, valid UTF-8
    std::set<std::string> strings;
    Strings(report, &strings);
    EXPECT_TRUE(Contains(strings, "weird" + kBad)) << format;
    EXPECT_TRUE(Contains(strings, "libx" + kBad + ".so.1")) << format;
    EXPECT_TRUE(Contains(strings, "libgone\x1b]0;t\a.so.1")) << format;
    EXPECT_TRUE(Contains(strings, "bin/app" + kBad)) << format;
  }
  const Json report = Json::parse(DiffNames("json").out);
  std::set<std::string> removed;
  for (const Json& f : report["findings"])
    if (f["check"] == "symbols-removed") removed.insert(BytesOfLosslessText(f["soname"].get<std::string>()));
  EXPECT_EQ(removed, std::set<std::string>{"libx" + kBad + ".so.1"});
}

// Messages on stderr too: a path that does not exist, and a report that nests too deep.
TEST(DiffOutput, ErrorsNamingTheInputsAreEscaped) {
  const Output missing =
      RunDiff("\"" + kNames + "/old/lib/nothing$(printf '\\033[31m\\r')\" " + kNames + "/new");
  EXPECT_EQ(missing.status, 2);
  EXPECT_EQ(ControlIn(missing.err), "") << missing.err;
  EXPECT_THAT(missing.err, HasSubstr("nothing\\x1b[31m\\x0d"));
  TempDir t;
  const std::string deep = t / "deep\x1b[2K.json";
  WriteAll(deep,
           "{\"schema_version\": 1, \"findings\": [" + std::string(100, '[') + std::string(100, ']') + "]}");
  const Output too_deep = RunDiff("'" + deep + "' " + kNames + "/new");
  EXPECT_EQ(too_deep.status, 2);
  EXPECT_EQ(ControlIn(too_deep.err), "") << too_deep.err;
  EXPECT_THAT(too_deep.err,
              HasSubstr("deep\\x1b[2K.json: not a rocm-audit JSON report: nests deeper than 64"));
}

}  // namespace
}  // namespace rocm_audit::testing
