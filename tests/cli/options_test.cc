// The options table is the one source of the parser, --help and the man page's OPTIONS.
#include "cli/options.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "checks/registry.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::AnyOf;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::Eq;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;
using ::testing::UnorderedElementsAreArray;

std::string ManPage() { return ReadAll(std::string(ROCM_AUDIT_SOURCE_DIR) + "/docs/rocm-audit.1"); }

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

// A count of 0 is a number the option refuses: the message says which numbers it takes.
TEST(Options, CountsOfZeroAreRefusedByTheRangeTheyMiss) {
  for (const char* option : {"--max-members", "--max-ratio", "--max-findings-per-file"}) {
    CliOptions o;
    std::string error;
    EXPECT_FALSE(ParseArguments({option, "0", "p"}, &o, &error)) << option;
    EXPECT_EQ(error, std::string(option) + " needs a number of 1 or more, not '0'");
    EXPECT_TRUE(ParseArguments({option, "3", "p"}, &o, &error)) << error;
  }
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

// Each command's --help lists the options it takes (the option's own line: "  -j, --jobs N"
// then its help, on that line or the next) and no other; every option is parsed.
TEST(Options, EveryOptionIsParsedAndListedInTheHelpOfTheCommandsThatTakeIt) {
  for (const Command& command : AllCommands()) {
    const std::vector<std::string> help = Lines(HelpText(command));
    for (const Option& opt : AllOptions()) {
      const std::string name(opt.long_name);
      const std::string left = "  " + (opt.short_name.empty() ? "" : std::string(opt.short_name) + ", ") +
                               name + (opt.value.empty() ? "" : " " + std::string(opt.value));
      if (opt.commands & command.bit)
        EXPECT_THAT(help, Contains(AnyOf(StartsWith(left + "  "), Eq(left)))) << command.name << " " << name;
      else
        EXPECT_THAT(help, Not(Contains(AnyOf(StartsWith(left + "  "), Eq(left)))))
            << command.name << " " << name;
    }
  }
  for (const Option& opt : AllOptions()) {
    const std::string name(opt.long_name);
    CliOptions o;
    std::string error;
    bool ok = ParseArguments({name, "x"}, &o, &error);
    if (opt.value.empty()) {
      if (!ok) EXPECT_THAT(error, Not(HasSubstr("unknown option"))) << name;
    } else {
      CliOptions bare;
      EXPECT_FALSE(ParseArguments({name}, &bare, &error));
      EXPECT_EQ(error, name + " needs a value");
    }
  }
}

TEST(Options, HelpNamesNoOptionTheParserDoesNotKnow) {
  for (const Command& command : AllCommands()) {
    const std::string help = HelpText(command);
    std::regex long_option("--[a-z][a-z-]*");
    for (auto it = std::sregex_iterator(help.begin(), help.end(), long_option); it != std::sregex_iterator();
         ++it) {
      CliOptions o;
      std::string error;
      (void)ParseArguments({it->str(), "x"}, &o, &error);
      EXPECT_THAT(error, Not(HasSubstr("unknown option"))) << it->str();
    }
  }
}

// The command is the first argument that is no option and no option's value: options go
// before it or after it alike.
TEST(Commands, OptionsBeforeTheCommandAreUnderstood) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"--no-progress", "diff", "A", "B"},
                                             {"--format", "json", "-j2", "diff", "A", "B"},
                                             {"diff", "--no-progress", "A", "B"},
                                             {"--root=/r", "diff", "--from", "A", "--to", "B"}}) {
    CliOptions o;
    std::string error;
    ASSERT_TRUE(ParseArguments(args, &o, &error)) << error;
    EXPECT_EQ(o.command, kDiffCommand);
    EXPECT_EQ(o.diff_old, std::vector<std::string>{"A"});
    EXPECT_EQ(o.diff_new, std::vector<std::string>{"B"});
  }
  // The value of an option is never the command; nor is a second PATH, nor one after "--".
  CliOptions value, after_dashes;
  std::string error;
  ASSERT_TRUE(ParseArguments({"--tree", "diff", "p"}, &value, &error)) << error;
  EXPECT_EQ(value.command, kAuditCommand);
  EXPECT_EQ(value.tree, "diff");
  ASSERT_TRUE(ParseArguments({"--", "diff"}, &after_dashes, &error)) << error;
  EXPECT_EQ(after_dashes.command, kAuditCommand);
  EXPECT_EQ(after_dashes.audit.paths, std::vector<std::string>{"diff"});
}

// An option that the command does not take says which commands take it, whichever side of
// the command it is on.
TEST(Commands, AMisplacedOptionSaysWhereItGoes) {
  CliOptions o;
  std::string error;
  EXPECT_FALSE(ParseArguments({"diff", "--tree", "x", "A", "B"}, &o, &error));
  EXPECT_EQ(
      error,
      "--tree is an option of audit (rocm-audit [options] PATH...), not of diff (see rocm-audit help diff)");
  CliOptions before;
  EXPECT_FALSE(ParseArguments({"--files", "none", "diff", "A", "B"}, &before, &error));
  EXPECT_EQ(
      error,
      "--files is an option of audit (rocm-audit [options] PATH...), not of diff (see rocm-audit help diff)");
  CliOptions audit;
  EXPECT_FALSE(ParseArguments({"--from", "A", "--to", "B"}, &audit, &error));
  EXPECT_EQ(error,
            "--from is an option of diff (rocm-audit diff [options] OLD NEW), not of audit (see rocm-audit "
            "help audit)");
  CliOptions help;
  EXPECT_FALSE(ParseArguments({"help", "-j2"}, &help, &error));
  EXPECT_EQ(error,
            "--jobs is an option of audit (rocm-audit [options] PATH...), diff (rocm-audit diff [options] "
            "OLD NEW) and index (rocm-audit index [options] PACKAGE...), not of help (see rocm-audit help "
            "help)");
}

// A command named after a PATH was meant as the command, when no file has its name.
TEST(Commands, ACommandAfterAPathSaysItGoesFirst) {
  TempDir dir;
  const std::filesystem::path before = std::filesystem::current_path();
  std::filesystem::current_path(dir.path());
  CliOptions o, file;
  std::string error, file_error;
  const bool parsed = ParseArguments({"old", "diff", "new"}, &o, &error);
  std::ofstream(dir.path() + "/diff").put('\n');
  const bool parsed_file = ParseArguments({"old", "diff"}, &file, &file_error);
  std::filesystem::current_path(before);
  EXPECT_FALSE(parsed);
  EXPECT_EQ(error,
            "diff: no such file or directory; the command diff goes before its PATHs (rocm-audit [options] "
            "diff ...; see rocm-audit help diff)");
  EXPECT_TRUE(parsed_file) << file_error;  // a file named diff is audited
}

TEST(Commands, HelpNamesACommandOrNone) {
  CliOptions none, diff, flag, unknown;
  std::string error;
  ASSERT_TRUE(ParseArguments({"help"}, &none, &error)) << error;
  EXPECT_EQ(none.command, kHelpCommand);
  ASSERT_TRUE(ParseArguments({"help", "diff"}, &diff, &error)) << error;
  EXPECT_EQ(diff.audit.paths, std::vector<std::string>{"diff"});
  ASSERT_TRUE(ParseArguments({"diff", "--help"}, &flag, &error)) << error;  // no PATHs needed
  EXPECT_TRUE(flag.show_help);
  EXPECT_EQ(flag.command, kDiffCommand);
  EXPECT_FALSE(ParseArguments({"help", "nosuch"}, &unknown, &error));
  EXPECT_EQ(error, "help: no command named nosuch (commands: audit, diff, index, help)");
}

// `rocm-audit diff --help`, `rocm-audit help diff` and the diff row's help are one text.
TEST(Commands, DiffHelpIsTheSameByEitherSpelling) {
  std::string flag, word;
  ASSERT_EQ(RunCommand(std::string(ROCM_AUDIT_BINARY) + " diff --help", &flag), 0);
  ASSERT_EQ(RunCommand(std::string(ROCM_AUDIT_BINARY) + " help diff", &word), 0);
  EXPECT_EQ(flag, word);
  EXPECT_EQ(flag, HelpText(CommandOf(kDiffCommand)));
  EXPECT_THAT(Lines(flag), Contains("usage: rocm-audit diff [options] OLD NEW"));
  EXPECT_THAT(flag, Not(HasSubstr("--tree")));
}

// The unquoted arguments of a roff macro line, with "\-" as "-": in a .TP tag they are the
// names (".BR \-o \", \" \-\-output \" \fIFILE\fR\"" gives -o and --output); the quoted
// arguments are the separators and the value's placeholder.
std::vector<std::string> UnquotedArguments(std::string_view line) {
  std::vector<std::string> out;
  size_t i = line.find(' ');  // past the macro
  while (i < line.size()) {
    if (line[i] == ' ') {
      ++i;
    } else if (line[i] == '"') {
      size_t close = line.find('"', i + 1);
      i = close == std::string_view::npos ? line.size() : close + 1;
    } else {
      size_t end = std::min(line.find_first_of(" \"", i), line.size());
      std::string arg;
      for (size_t k = i; k < end; ++k)
        if (!(line[k] == '\\' && k + 1 < end && line[k + 1] == '-')) arg += line[k];
      out.push_back(arg);
      i = end;
    }
  }
  return out;
}

// The tag line of each .TP entry in the man page's section `name` (".SH name" to the next .SH).
std::vector<std::string> TagLines(const std::string& man, const std::string& name) {
  std::vector<std::string> tags;
  std::istringstream in(man);
  std::string line;
  bool inside = false, after_tp = false;
  while (std::getline(in, line)) {
    if (line.starts_with(".SH ")) inside = line == ".SH " + name;
    if (!inside) continue;
    if (after_tp) tags.push_back(line);
    after_tp = line == ".TP";
  }
  return tags;
}

// What an OPTIONS entry documents, as its tag names it: "-o, --output", "--color, --colour".
std::string Spellings(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

TEST(Options, ManPageTagsAreReadAsWholeNames) {
  EXPECT_THAT(UnquotedArguments(R"(.BI \-\-require\-arch\-file " FILE")"),
              ElementsAre("--require-arch-file"));
  EXPECT_THAT(UnquotedArguments(R"(.BR \-o ", " \-\-output " \fIFILE\fR")"), ElementsAre("-o", "--output"));
  EXPECT_THAT(UnquotedArguments(R"(.B \-\-verify\-hash)"), ElementsAre("--verify-hash"));
  EXPECT_THAT(
      TagLines(".SH A\n.TP\n.B \\-x\ntext\n.SH OPTIONS\n.TP\n.B \\-\\-y\ntext\n.TP\n.B z\n.SH B\n.TP\n.B w\n",
               "OPTIONS"),
      ElementsAre(".B \\-\\-y", ".B z"));
}

// The OPTIONS section has one .TP entry per option of the table, naming all its spellings
// (short name, long name, alias) and no other: the entries and the table are equal.
TEST(Options, ManPageDocumentsEveryOptionAndNoOther) {
  std::vector<std::string> documented;
  for (const std::string& tag : TagLines(ManPage(), "OPTIONS"))
    documented.push_back(Spellings(UnquotedArguments(tag)));
  std::vector<std::string> parsed;
  for (const Option& opt : AllOptions()) {
    std::vector<std::string> names;
    for (std::string_view n : {opt.short_name, opt.long_name, opt.alias})
      if (!n.empty()) names.emplace_back(n);
    parsed.push_back(Spellings(names));
  }
  ASSERT_FALSE(documented.empty());
  EXPECT_THAT(documented, UnorderedElementsAreArray(parsed));
}

// The text of a roff section (".SH name" to the next .SH), its font escapes and "\-" undone.
std::string SectionText(const std::string& man, const std::string& name) {
  std::string out;
  std::istringstream in(man);
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line.starts_with(".SH ")) inside = line == ".SH " + name;
    if (!inside || line.starts_with(".SH ")) continue;
    out += std::regex_replace(std::regex_replace(line, std::regex(R"(\\f[BIRP])"), ""), std::regex(R"(\\-)"),
                              "-") +
           "\n";
  }
  return out;
}

// The SYNOPSIS shows each command's synopsis lines as the table has them.
TEST(Commands, ManPageSynopsisShowsEveryCommand) {
  std::string synopsis = SectionText(ManPage(), "SYNOPSIS");
  std::replace(synopsis.begin(), synopsis.end(), '\n', ' ');
  synopsis = std::regex_replace(synopsis, std::regex(R"(\.B )"), "");
  for (const Command& c : AllCommands()) {
    std::string_view lines = c.synopsis;
    while (!lines.empty()) {
      const size_t end = std::min(lines.find('\n'), lines.size());
      EXPECT_THAT(synopsis, HasSubstr("rocm-audit " + std::string(lines.substr(0, end))));
      lines.remove_prefix(std::min(end + 1, lines.size()));
    }
  }
}

// The COMMANDS section has one entry per command, named as the table names it, whose
// "Options:" line names the options it takes ("only ...") or those it does not ("all but
// ..."), as the options table says.
TEST(Commands, ManPageSaysWhichOptionsEachCommandTakes) {
  const std::vector<std::string> text = Lines(SectionText(ManPage(), "COMMANDS"));
  std::vector<std::string> documented;
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    if (text[i] != ".TP") continue;
    const std::string name = UnquotedArguments(text[i + 1]).at(0);
    documented.push_back(name);
    const Command* command = CommandNamed(name);
    ASSERT_NE(command, nullptr) << name;
    size_t k = i + 2;
    while (k < text.size() && !text[k].starts_with("Options: ") && text[k] != ".TP") ++k;
    ASSERT_LT(k, text.size()) << name << ": no Options: line";
    const bool all_but = text[k].starts_with("Options: all but ");
    ASSERT_TRUE(all_but || text[k].starts_with("Options: only ")) << text[k];
    std::vector<std::string> named;
    std::regex long_option("--[a-z][a-z-]*");
    for (auto it = std::sregex_iterator(text[k].begin(), text[k].end(), long_option);
         it != std::sregex_iterator(); ++it)
      named.push_back(it->str());
    std::vector<std::string> expected;
    for (const Option& opt : AllOptions())
      if (bool(opt.commands & command->bit) != all_but) expected.emplace_back(opt.long_name);
    EXPECT_THAT(named, UnorderedElementsAreArray(expected)) << name;
  }
  std::vector<std::string> names;
  for (const Command& c : AllCommands()) names.emplace_back(c.name);
  EXPECT_THAT(documented, UnorderedElementsAreArray(names));
}

// The CHECKS section's tags name each rule whole (".B missing\-arch \fR(error)", and a second
// rule in one entry as "\fBsymlink\-loop\fR (warning)"): missing-arch is not found inside
// missing-arch-data. The rules documented equal the rules a finding can name.
TEST(Options, ManPageDocumentsEveryCheck) {
  std::vector<std::string> documented;
  std::regex second_rule(R"(\\fB([a-z\\-]+)\\fR \()");
  for (const std::string& tag : TagLines(ManPage(), "CHECKS")) {
    std::vector<std::string> args = UnquotedArguments(tag);
    ASSERT_FALSE(args.empty()) << tag;
    documented.push_back(args[0]);
    for (auto it = std::sregex_iterator(tag.begin(), tag.end(), second_rule); it != std::sregex_iterator();
         ++it) {
      std::string id;
      for (char c : (*it)[1].str())
        if (c != '\\') id += c;
      documented.push_back(id);
    }
  }
  std::vector<std::string> known;
  for (const Rule& r : KnownRules()) known.emplace_back(r.id);
  EXPECT_THAT(documented, UnorderedElementsAreArray(known));
}

}  // namespace
}  // namespace rocm_audit::testing
