#include "audit/cmake/cmake_regex.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace rocm_audit {
namespace {

std::string MatchOf(const std::string& pattern, const std::string& text) {
  std::string error;
  std::unique_ptr<CMakeRegex> re = CMakeRegex::Compile(pattern, &error);
  if (!re) return "<error: " + error + ">";
  std::optional<RegexMatch> m = re->Find(text);
  return m ? m->groups[0] : "<none>";
}

std::string CompileError(const std::string& pattern) {
  std::string error;
  return CMakeRegex::Compile(pattern, &error) ? "" : error;
}

// Each expected value is what cmake 3.25.1 -P printed for the same string(REGEX MATCH).
TEST(CMakeRegex, KeepsCMakesSyntax) {
  EXPECT_EQ(MatchOf("a{2}", "a{2}aa"), "a{2}");        // braces are literal
  EXPECT_EQ(MatchOf("\\.", "x.y"), ".");               // a backslash makes the next one literal
  EXPECT_EQ(MatchOf("[[:digit:]]+", "ab12:]"), ":]");  // no POSIX classes: "[[:digt" then "]+"
  EXPECT_EQ(MatchOf("x\\1", "x1"), "x1");              // no back-references
  EXPECT_EQ(MatchOf("[]a]+", "b]a]"), "]a]");          // ']' first is a member
  EXPECT_EQ(MatchOf("[a-c-e]+", "xabcdey"), "abcde");  // ranges as kwsys expands them
  EXPECT_EQ(MatchOf("[^-^]+", "^-ab"), "ab");
  EXPECT_EQ(MatchOf("[\\^]", "a^"), "^");                // no escapes in brackets: '\\' or '^'
  EXPECT_EQ(MatchOf("(((((((((a)))))))))", "za"), "a");  // nine groups compile
}

TEST(CMakeRegex, RefusesWhatCMakeRefuses) {
  EXPECT_EQ(CompileError("((((((((((a))))))))))"), "Too many parentheses.");
  EXPECT_EQ(CompileError("a\\"), "Trailing backslash.");
  EXPECT_EQ(CompileError("[abc"), "Unmatched [].");
  EXPECT_EQ(CompileError("[z-a]"), "Invalid range in [].");
  EXPECT_NE(CompileError("(a"), "");
}

// A named difference: POSIX takes the longest of the leftmost matches; CMake's engine
// takes the first alternative that matches ("a", from cmake 3.25.1).
TEST(CMakeRegex, PosixPicksTheLongestLeftmostMatch) { EXPECT_EQ(MatchOf("a|ab", "abc"), "ab"); }

TEST(CMakeRegex, GroupsAndOffsets) {
  std::string error;
  auto re = CMakeRegex::Compile("(x)?(b)", &error);
  ASSERT_TRUE(re) << error;
  std::optional<RegexMatch> m = re->Find("abc");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->begin, 1u);
  EXPECT_EQ(m->end, 2u);
  ASSERT_EQ(m->groups.size(), 3u);
  EXPECT_EQ(m->groups[1], "");
  EXPECT_EQ(m->groups[2], "b");
}

// std::regex overflowed the stack on the first and took 35 s on the second at 40
// characters; the nesting is refused as CMake refuses it, and matching is linear.
TEST(CMakeRegex, HostilePatternsAreRefusedOrLinear) {
  std::string nested(30000, '(');  // appended: GCC 12 warns falsely on a sum of temporaries
  nested += 'a';
  nested.append(30000, ')');
  EXPECT_EQ(CompileError(nested), "Too many parentheses.");
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(MatchOf("(a|aa)*c", std::string(kMaxRegexInput, 'a')), "<none>");
  EXPECT_EQ(MatchOf("^(a|b)*$", std::string(kMaxRegexInput, 'a')).size(), kMaxRegexInput);
  EXPECT_EQ(MatchOf("(x+x+)+y", std::string(kMaxRegexInput, 'x')), "<none>");
  // A bound, not a benchmark: backtracking takes hours here.
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 20.0);
}

}  // namespace
}  // namespace rocm_audit
