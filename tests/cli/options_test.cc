// The options table is the one source of the parser, --help and the man page's OPTIONS.
#include "cli/options.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "checks/registry.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

std::string ManPage() { return ReadAll(std::string(ROCM_AUDIT_SOURCE_DIR) + "/docs/rocm-audit.1"); }

std::string Escaped(std::string_view text) {
  std::string out;
  for (char c : text) out += c == '-' ? std::string("\\-") : std::string(1, c);
  return out;
}

TEST(Options, ParsesRepeatableAndColonSeparatedOptions) {
  CliOptions o;
  std::string error;
  ASSERT_TRUE(ParseArguments({"--library-path", "/a:/b", "--library-path=/c", "--forbid-rpath", "/opt/*",
                              "-j3", "--fail-on", "note", "-q", "p1", "--", "-p2"},
                             &o, &error))
      << error;
  EXPECT_EQ(o.audit.library_path, (std::vector<std::string>{"/a", "/b", "/c"}));
  EXPECT_EQ(o.audit.checks.forbid_rpath, std::vector<std::string>{"/opt/*"});
  EXPECT_EQ(o.audit.jobs, 3u);
  EXPECT_EQ(o.fail_on, Severity::kNote);
  EXPECT_TRUE(o.quiet);
  EXPECT_EQ(o.audit.paths, (std::vector<std::string>{"p1", "-p2"}));
}

TEST(Options, SpillDirIsADirectoryOrNone) {
  CliOptions dir, none, bare;
  std::string error;
  ASSERT_TRUE(ParseArguments({"--spill-dir", "/var/tmp", "p"}, &dir, &error)) << error;
  EXPECT_EQ(dir.audit.spill_dirs, std::vector<std::string>{"/var/tmp"});
  EXPECT_TRUE(dir.spill_dir_given);
  ASSERT_TRUE(ParseArguments({"--spill-dir=none", "p"}, &none, &error)) << error;
  EXPECT_TRUE(none.audit.spill_dirs.empty());  // every window in memory
  EXPECT_TRUE(none.spill_dir_given);
  ASSERT_TRUE(ParseArguments({"p"}, &bare, &error)) << error;
  EXPECT_FALSE(bare.spill_dir_given);  // the command line takes $TMPDIR or /tmp, then /var/tmp
  EXPECT_FALSE(ParseArguments({"--spill-dir=", "p"}, &bare, &error));
  EXPECT_EQ(error, "--spill-dir needs a directory, or none");
}

TEST(Options, EveryOptionIsParsedAndListedInHelp) {
  std::string help = HelpText();
  for (const Option& opt : AllOptions()) {
    std::string name(opt.long_name);
    EXPECT_NE(help.find(name), std::string::npos) << name;
    CliOptions o;
    std::string error;
    bool ok = ParseArguments({name, "x"}, &o, &error);
    if (opt.value.empty()) {
      EXPECT_TRUE(ok || error.find("unknown option") == std::string::npos) << name << ": " << error;
    } else {
      CliOptions bare;
      ParseArguments({name}, &bare, &error);
      EXPECT_EQ(error, name + " needs a value");
    }
  }
}

TEST(Options, HelpNamesNoOptionTheParserDoesNotKnow) {
  std::string help = HelpText();
  std::regex long_option("--[a-z][a-z-]*");
  for (auto it = std::sregex_iterator(help.begin(), help.end(), long_option); it != std::sregex_iterator();
       ++it) {
    CliOptions o;
    std::string error;
    ParseArguments({it->str(), "x"}, &o, &error);
    EXPECT_EQ(error.find("unknown option"), std::string::npos) << it->str();
  }
}

TEST(Options, ManPageDocumentsEveryOptionAndNoOther) {
  std::string man = ManPage();
  ASSERT_FALSE(man.empty());
  std::set<std::string> known;
  for (const Option& opt : AllOptions()) {
    known.insert(Escaped(opt.long_name));
    EXPECT_NE(man.find(Escaped(opt.long_name)), std::string::npos) << opt.long_name;
    if (!opt.short_name.empty()) known.insert(Escaped(opt.short_name));
  }
  // Each option the OPTIONS section describes (a .TP tag) is one the parser knows.
  size_t start = man.find(".SH OPTIONS"), end = man.find(".SH", start + 1);
  ASSERT_NE(start, std::string::npos);
  std::string options = man.substr(start, end - start);
  std::regex tag("\\.TP\\n\\.B[IR]? (\\\\-\\\\-[a-z\\\\-]+)");
  int tags = 0;
  for (auto it = std::sregex_iterator(options.begin(), options.end(), tag); it != std::sregex_iterator();
       ++it) {
    ++tags;
    EXPECT_TRUE(known.count((*it)[1].str())) << (*it)[1].str();
  }
  int long_only = 0;  // the tags of -o, -q, -j, -v, -h start with the short name
  for (const Option& opt : AllOptions()) long_only += opt.short_name.empty();
  EXPECT_GE(tags, long_only);
}

TEST(Options, ManPageDocumentsEveryCheck) {
  std::string man = ManPage();
  // A whole tag, not a substring: missing-arch must not be found inside missing-arch-data.
  for (const Rule& r : KnownRules()) {
    std::string id = Escaped(r.id);
    EXPECT_TRUE(man.find(".B " + id + " ") != std::string::npos ||
                man.find("\\fB" + id + "\\fR (") != std::string::npos)
        << r.id;
  }
}

}  // namespace
}  // namespace rocm_audit::testing
