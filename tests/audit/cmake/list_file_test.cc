#include "audit/cmake/list_file.h"

#include <gtest/gtest.h>

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

TEST(ListFile, ErrorsAreReportedNotThrown) {
  for (const char* bad : {"set(a", "set(a \"open)\n", "set(a [[x)", "(", "set a)", "#[[ never closed"}) {
    ListFile f = ParseListFile(bad);
    EXPECT_FALSE(f.error.empty()) << bad;
    EXPECT_TRUE(f.commands.empty()) << bad;
  }
}

}  // namespace
}  // namespace rocm_audit
