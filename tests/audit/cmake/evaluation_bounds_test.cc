// Issue 47's CMake shapes: blocks nested deeper than a recursion per block holds (150,000
// nested if(TRUE) overflowed the stack), and regular-expression searches charged by input x
// pattern before they are made (a pattern of 20,000 alternatives took seconds a search).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <ctime>
#include <string>

#include "audit/cmake/cmake_regex.h"
#include "audit/cmake/evaluator.h"
#include "audit/cmake/variable_map.h"
#include "tests/support/scratch_dir_test.h"
#include "tests/support/test_support.h"

namespace rocm_audit {
namespace {

using ::testing::Contains;
using ::testing::Field;
using ::testing::HasSubstr;

class EvaluationBounds : public testing::ScratchDirTest {
 protected:
  CMakeEvaluation Run(const std::string& name, const std::string& text, EvaluatorLimits limits = {}) {
    CMakeEvaluator e(files_, limits);
    e.Run(Write(name, text));
    return e.Take();
  }
  static std::string Var(const CMakeEvaluation& r, const std::string& name) {
    const CMakeValue* v = r.variables.Find(name);
    if (!v) return "<undefined>";
    return v->known ? v->text : "<unknown>";
  }
  static std::string Repeat(const std::string& s, size_t n) {
    std::string out;
    out.reserve(s.size() * n);
    for (size_t k = 0; k < n; ++k) out += s;
    return out;
  }
  // `n` alternatives a0000z|a0001z|...: about 8 states each.
  static std::string Alternatives(size_t n) {
    std::string out;
    char item[16];
    for (size_t k = 0; k < n; ++k) {
      std::snprintf(item, sizeof item, "%sa%04zuz", k ? "|" : "", k);
      out += item;
    }
    return out;
  }
  static double CpuSeconds(std::clock_t since) { return double(std::clock() - since) / CLOCKS_PER_SEC; }

  RootedFs fs_;
  InstalledFiles files_{fs_, {}};
};

// The innermost of 150,000 nested if(TRUE) runs, and what it sets is seen after them; so for
// 100,000 nested foreach(), while(), block(PROPAGATE) and if() in turn, each loop ending after
// one pass and each foreach() restoring its variable.
TEST_F(EvaluationBounds, BlocksNestedDeeperThanAStackHoldsEvaluate) {
  const size_t n = 150000;
  auto r = Run("if.cmake", Repeat("if(TRUE)\n", n) + "set(found yes)\n" + Repeat("endif()\n", n) +
                               "set(after \"${found}\")\n");
  EXPECT_EQ(Var(r, "after"), "yes");
  EXPECT_TRUE(r.skipped.empty());
  EXPECT_TRUE(r.failures.empty());

  std::string open, close;
  const char* opens[] = {"foreach(v a)\n", "while(NOT found)\n", "block(PROPAGATE found)\n", "if(TRUE)\n"};
  const char* closes[] = {"endforeach()\n", "endwhile()\n", "endblock()\n", "endif()\n"};
  const size_t levels = 100000;
  for (size_t k = 0; k < levels; ++k) open += opens[k % 4];
  for (size_t k = levels; k-- > 0;) close += closes[k % 4];
  auto m = Run("mixed.cmake", "set(v outer)\n" + open + "set(found yes)\n" + close);
  EXPECT_EQ(Var(m, "found"), "yes");
  EXPECT_EQ(Var(m, "v"), "outer");
  EXPECT_TRUE(m.skipped.empty());
}

// 1,000,000 lines of nested blocks are past max_file_bytes (a failure, as a file that cannot
// be read) and past max_commands; with both raised, they evaluate.
TEST_F(EvaluationBounds, AMillionLinesOfNestedBlocksEvaluateWithinTheirBounds) {
  const size_t n = 500000;
  const std::string text = Repeat("if(1)\n", n) + "set(found yes)\n" + Repeat("endif()\n", n);
  EvaluatorLimits raised;
  raised.max_file_bytes = 16 << 20;
  raised.max_commands = 2 * n;
  auto r = Run("million.cmake", text, raised);
  EXPECT_EQ(Var(r, "found"), "yes");
  EXPECT_TRUE(r.skipped.empty());

  auto d = Run("default.cmake", text);
  EXPECT_EQ(Var(d, "found"), "<undefined>");
  EXPECT_FALSE(d.failures.empty());
}

// The flow out of a deep nest is the flow of the block around it: break() ends the loop,
// return() the function, an undecided if() leaves what its branches set unknown.
TEST_F(EvaluationBounds, BreakReturnAndUndecidedBranchesLeaveADeepNest) {
  const size_t n = 20000;
  auto b = Run("break.cmake", "foreach(i 1 2 3)\n" + Repeat("if(TRUE)\n", n) + "set(last ${i})\nbreak()\n" +
                                  Repeat("endif()\n", n) + "set(never 1)\nendforeach()\n");
  EXPECT_EQ(Var(b, "last"), "1");
  EXPECT_EQ(Var(b, "never"), "<undefined>");
  EXPECT_EQ(Var(b, "i"), "<undefined>");
  auto w = Run("while-break.cmake", "set(n 0)\nwhile(TRUE)\n  math(EXPR n \"${n} + 1\")\n" +
                                        Repeat("if(n EQUAL 3)\n", n) + "break()\n" + Repeat("endif()\n", n) +
                                        "endwhile()\n");
  EXPECT_EQ(Var(w, "n"), "3");
  EXPECT_TRUE(w.skipped.empty());

  auto f = Run("return.cmake", "function(f)\n" + Repeat("while(TRUE)\n", n) +
                                   "set(inner 1 PARENT_SCOPE)\nreturn()\n" + Repeat("endwhile()\n", n) +
                                   "set(never 1 PARENT_SCOPE)\nendfunction()\nf()\nset(after 1)\n");
  EXPECT_EQ(Var(f, "inner"), "1");
  EXPECT_EQ(Var(f, "never"), "<undefined>");
  EXPECT_EQ(Var(f, "after"), "1");
  EXPECT_TRUE(f.skipped.empty());

  auto u = Run("undecided.cmake", "set(e \"$ENV{HOME}\")\n" + Repeat("if(e)\n", 1000) + "set(x 1)\n" +
                                      Repeat("endif()\n", 1000) + "set(after 1)\n");
  EXPECT_EQ(Var(u, "x"), "<unknown>");
  EXPECT_EQ(Var(u, "after"), "1");
  // 150,000 of them fork the state at each level: the work budget ends the evaluation.
  auto deep = Run("deep-undecided.cmake", "set(e \"$ENV{HOME}\")\n" + Repeat("if(e)\n", 150000) +
                                              "set(x 1)\n" + Repeat("endif()\n", 150000));
  ASSERT_FALSE(deep.skipped.empty());
  EXPECT_THAT(deep.skipped.back().reason, HasSubstr("MiB of values read, expanded, set and copied"));
}

// Variable references nest 32 deep here (CMake keeps a stack and has no bound): past that
// the value is unknown, never an expansion taken as written.
TEST_F(EvaluationBounds, ReferencesNestedPastTheBoundAreUnknown) {
  auto r = Run("refs.cmake", "set(x v)\nset(v yes)\nset(in \"" + Repeat("${", 31) + "x" + Repeat("}", 31) +
                                 "\")\nset(past \"" + Repeat("${", 33) + "x" + Repeat("}", 33) + "\")\n");
  EXPECT_EQ(Var(r, "in"), "");  // ${${...${x}...}}: ${v} is "yes", ${yes} is unset
  EXPECT_EQ(Var(r, "past"), "<unknown>");
  auto two = Run("two.cmake", "set(x v)\nset(v yes)\nset(r \"${${x}}\")\n");
  EXPECT_EQ(Var(two, "r"), "yes");
}

// 100,000 include(OPTIONAL) of distinct paths: each reference was found by a scan of those
// before it (44 s of CPU).
TEST_F(EvaluationBounds, ManyReferencesAreFoundByPath) {
  const std::clock_t start = std::clock();
  auto r = Run("refs.cmake",
               "foreach(i RANGE 9999)\n  foreach(j RANGE 9)\n"
               "    include(\"/nonexistent/${i}/${j}.cmake\" OPTIONAL)\n  endforeach()\nendforeach()\n"
               "include(\"/nonexistent/5/5.cmake\" OPTIONAL)\n");
  EXPECT_EQ(r.references.size(), 100000u);
  EXPECT_TRUE(r.skipped.empty());
  EXPECT_LT(CpuSeconds(start), 10.0 * testing::kSanitizerSlowdown);
}

// A pattern of 20,000 alternatives over 60 kB (about 6 s a search when it was charged by its
// input alone), in each command that searches: none is made, and each result is unknown.
TEST_F(EvaluationBounds, RegexSearchesAreChargedByInputTimesPatternBeforeTheyAreMade) {
  const std::clock_t start = std::clock();
  const std::string prelude = "string(REPEAT abcdefghij 6000 s)\nset(p \"" + Alternatives(20000) + "\")\n";
  for (const char* mode : {"MATCH \"${p}\"", "MATCHALL \"${p}\"", "REPLACE \"${p}\" x"}) {
    auto r = Run("string.cmake", prelude + "string(REGEX " + mode + " m \"${s}\")\n");
    EXPECT_EQ(Var(r, "m"), "<unknown>") << mode;
    ASSERT_FALSE(r.skipped.empty()) << mode;
    EXPECT_THAT(r.skipped.back().reason, HasSubstr("work budget ran out")) << mode;
  }
  auto w = Run("while.cmake", prelude + "while(s MATCHES \"${p}\")\nendwhile()\n");
  ASSERT_FALSE(w.skipped.empty());
  EXPECT_THAT(w.skipped.back().reason, HasSubstr("search past the evaluation's work budget"));
  auto l = Run("filter.cmake", prelude + "set(l \"${s}\")\nlist(FILTER l INCLUDE REGEX \"${p}\")\n");
  EXPECT_EQ(Var(l, "l"), "<unknown>");
  // file(STRINGS) of a 1 MiB line with 400 alternatives: 6.8 s, charged nothing.
  const std::string line = Write("line.txt", Repeat("abcdefghij", 104857));
  auto f = Run("strings.cmake",
               "file(STRINGS \"" + line + "\" lines REGEX \"" + Alternatives(400) + "\")\nset(after 1)\n");
  EXPECT_EQ(Var(f, "lines"), "<unknown>");
  EXPECT_THAT(f.skipped, Contains(Field(&CMakeSkipped::reason, HasSubstr("work budget ran out"))));
  EXPECT_EQ(Var(f, "after"), "<undefined>");  // the budget is spent: the evaluation stops
  EXPECT_LT(CpuSeconds(start), 5.0 * testing::kSanitizerSlowdown);  // one search made would take more

  // Small patterns over the same input are searched as before.
  const std::string small = Write("small.txt", "a\n#define V 7\nb\n");
  auto ok = Run("small.cmake", prelude + "string(REGEX MATCH \"j(a)b\" m \"${s}\")\n" +
                                   "if(s MATCHES \"^abc\")\n  set(x 1)\nendif()\n" + "file(STRINGS \"" +
                                   small + "\" v REGEX \"define\")\n");
  EXPECT_EQ(Var(ok, "m"), "jab");
  EXPECT_EQ(Var(ok, "x"), "1");
  EXPECT_EQ(Var(ok, "v"), "#define V 7");
  EXPECT_TRUE(ok.skipped.empty());
}

// The charge of a search grows with the pattern once it is past the engine's 64-state bit-set
// matcher; below that it is what it was, 256 a byte.
// A function() call starts from a copy of its caller's scope and an undecided if() runs each
// branch on a copy of the state, as CMake does; Qt6's configs hold well over a thousand
// variables and make thousands of calls and forks. Each copy costs what changed since the
// scope was last copied, not the whole scope: before, 2,000 variables copied for 100 calls
// and 100 undecided if()s were 2,000 x 400 = 800,000 entries. Counted, never timed.
TEST_F(EvaluationBounds, CallsAndUndecidedIfsCopyWhatChangedNotTheWholeScope) {
  const size_t before = VariableMap::EntriesCopied();
  auto r = Run(
      "copies.cmake",
      "foreach(i RANGE 1999)\n  set(v${i} \"value ${i}\")\nendforeach()\n"
      "function(touch n)\n  set(local ${n})\n  set(touched_${n} \"${v${n}}\" PARENT_SCOPE)\nendfunction()\n"
      "foreach(i RANGE 99)\n  touch(${i})\n"
      "  if(EXISTS \"$ENV{HOME}/x\")\n    set(branch_${i} yes)\n    set(same_${i} yes)\n"
      "  else()\n    set(same_${i} yes)\n  endif()\nendforeach()\n");
  const size_t copied = VariableMap::EntriesCopied() - before;
  // What each branch and call changed, and a map of its own every few hundred changes.
  EXPECT_LT(copied, 2000u * 20) << copied;
  // The merge is what it was: set alike on every path known, on some paths unknown.
  EXPECT_EQ(Var(r, "touched_42"), "value 42");
  EXPECT_EQ(Var(r, "same_42"), "yes");
  EXPECT_EQ(Var(r, "branch_42"), "<unknown>");
  EXPECT_EQ(Var(r, "v1999"), "value 1999");
  EXPECT_EQ(Var(r, "local"), "<undefined>");
  EXPECT_TRUE(r.skipped.empty());
}

TEST(CMakeRegexWork, SearchesAreChargedByInputTimesStates) {
  std::string error;
  auto small = CMakeRegex::Compile("^([0-9]+)\\.([0-9]+)", &error);
  ASSERT_TRUE(small) << error;
  EXPECT_EQ(small->SearchWork(1000), 256u * (1000 + 64));
  std::string alternatives;
  for (int k = 0; k < 400; ++k)
    alternatives += std::string(k ? "|" : "") + "a" + std::to_string(1000 + k) + "z";
  auto large = CMakeRegex::Compile(alternatives, &error);
  ASSERT_TRUE(large) << error;
  EXPECT_GT(large->states(), 2400u);
  EXPECT_GT(large->SearchWork(1 << 20), EvaluatorLimits{}.max_work_bytes);
  EXPECT_LT(large->SearchWork(1000), EvaluatorLimits{}.max_work_bytes / 10);
}

}  // namespace
}  // namespace rocm_audit
