#include "audit/cmake/list_file.h"
#include "audit/cmake/program.h"

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
  std::vector<std::string> names, args;
  size_t bytes = 0;
  for (const ListFileCommand& c : f.commands) {
    names.emplace_back(c.name), bytes += c.name.size();
    for (const ListFileArgument& a : c.args) args.emplace_back(a.text), bytes += a.text.size();
  }
  EXPECT_EQ(names, (std::vector<std::string>{"set", "if", "endif"}));
  EXPECT_EQ(args,
            (std::vector<std::string>{"a", "qr", "b", "${c}d", "(", "e", ")", "", "x", "MATCHES", "y"}));
  EXPECT_LE(bytes, size);
}

// Each if() has its own elseif()/else() commands, in order, though a nested if()'s come
// between them; every block knows its end.
TEST(Program, EachIfKeepsItsOwnClausesAndEveryBlockItsEnd) {
  ProgramPtr p = ParseProgram("x.cmake",
                              "if(a)\n"                     // 0
                              "  if(b)\n"                   // 1
                              "  elseif(c)\n"               // 2
                              "    foreach(i 1)\n"          // 3
                              "    endforeach()\n"          // 4
                              "  else()\n"                  // 5
                              "  endif()\n"                 // 6
                              "elseif(d)\n"                 // 7
                              "  if(e)\n"                   // 8
                              "  endif()\n"                 // 9
                              "else()\n"                    // 10
                              "endif()\n"                   // 11
                              "if(f)\nelse()\nendif()\n");  // 12-14
  ASSERT_TRUE(p->error.empty()) << p->error;
  auto clauses = [&](size_t at) {
    std::vector<size_t> out;
    p->AppendClauses(at, &out);
    return out;
  };
  EXPECT_EQ(clauses(0), (std::vector<size_t>{7, 10}));
  EXPECT_EQ(clauses(1), (std::vector<size_t>{2, 5}));
  EXPECT_EQ(clauses(8), (std::vector<size_t>{}));
  EXPECT_EQ(clauses(12), (std::vector<size_t>{13}));
  EXPECT_EQ(clauses(3), (std::vector<size_t>{}));
  EXPECT_EQ(p->end[0], 11u);
  EXPECT_EQ(p->end[1], 6u);
  EXPECT_EQ(p->end[3], 4u);
  EXPECT_EQ(p->end[8], 9u);
  EXPECT_EQ(p->end[12], 14u);
  EXPECT_EQ(DescribeCommand(p->commands[2]), "elseif(c)");
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
