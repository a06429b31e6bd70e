#include "audit/cmake/list_file.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace rocm_audit {
namespace {

TEST(ListFile, CommandsArgumentsAndLines) {
  ListFile f = ParseListFile(
      "# comment\n"
      "SET(a \"x y\" [=[raw ${v}]=] b) # trailing\n"
      "#[[ bracket\ncomment ]]\n"
      "if((A) AND B)\n"
      "endif()\n");
  ASSERT_TRUE(f.error.empty()) << f.error;
  ASSERT_EQ(f.commands.size(), 3u);
  EXPECT_EQ(f.commands[0].name, "set");
  EXPECT_EQ(f.commands[0].line, 2);
  ASSERT_EQ(f.commands[0].args.size(), 4u);
  EXPECT_EQ(f.commands[0].args[1].text, "x y");
  EXPECT_EQ(f.commands[0].args[1].kind, ListFileArgument::kQuoted);
  EXPECT_EQ(f.commands[0].args[2].text, "raw ${v}");
  EXPECT_EQ(f.commands[0].args[2].kind, ListFileArgument::kBracket);
  EXPECT_EQ(f.commands[1].line, 5);
  ASSERT_EQ(f.commands[1].args.size(), 5u);  // ( A ) AND B
  EXPECT_EQ(f.commands[1].args[0].text, "(");
  EXPECT_EQ(f.commands[1].args[2].text, ")");
}

TEST(ListFile, QuotedContinuationAndEscapes) {
  ListFile f = ParseListFile("message(\"a\\\nb \\\"q\\\"\")\nset(x ${y}/z)\n");
  ASSERT_TRUE(f.error.empty());
  EXPECT_EQ(f.commands[0].args[0].text, "ab \\\"q\\\"");
  EXPECT_EQ(f.commands[1].line, 3);
  EXPECT_EQ(f.commands[1].args[1].text, "${y}/z");
}

// The arguments' text lives in one buffer the ListFile owns: it stays valid when the file
// is moved (into a Program) and after the text parsed is gone, and holds no more than the
// file (every argument is cut from its own part of it).
TEST(ListFile, ArgumentsOutliveTheTextAndMoveWithTheFile) {
  auto text = std::make_unique<std::string>(
      "set(a \"q\\\nr\" [==[b]==] ${c}d (e) \"\")\nif(\"x\" MATCHES [[y]])\nendif()\n");
  ListFile parsed = ParseListFile(*text);
  const size_t size = text->size();
  text.reset();
  ListFile f = std::move(parsed);
  ASSERT_TRUE(f.error.empty()) << f.error;
  ASSERT_EQ(f.commands.size(), 3u);
  std::vector<std::string> args;
  size_t bytes = 0;
  for (const ListFileCommand& c : f.commands)
    for (const ListFileArgument& a : c.args) args.emplace_back(a.text), bytes += a.text.size();
  EXPECT_EQ(args,
            (std::vector<std::string>{"a", "qr", "b", "${c}d", "(", "e", ")", "", "x", "MATCHES", "y"}));
  EXPECT_LE(bytes, size);
}

TEST(ListFile, ErrorsAreReportedNotThrown) {
  for (const char* bad : {"set(a", "set(a \"open)\n", "set(a [[x)", "(", "set a)", "#[[ never closed"}) {
    ListFile f = ParseListFile(bad);
    EXPECT_FALSE(f.error.empty()) << bad;
    EXPECT_TRUE(f.commands.empty()) << bad;
  }
}

}  // namespace
}  // namespace rocm_audit
