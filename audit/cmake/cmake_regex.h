// CMake's regular expressions (string(REGEX), if(MATCHES), list(FILTER ... REGEX)), matched
// by LLVM's POSIX engine. A package's list files are input, not trusted code: libstdc++'s
// std::regex recurses once per nested group and per input character (deep nesting
// overflows the stack) and backtracks without bound ((a|aa)*c takes time exponential in
// the input's length). LLVM's engine runs patterns without back-references in time linear
// in the input, without recursion over it, and the translation below leaves none.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llvm {
class Regex;
}

namespace rocm_audit {

/// One match: [0] the whole match, [i] group i ("" when the group took no part).
struct RegexMatch {
  size_t begin = 0;  ///< offset of the match in the searched text
  size_t end = 0;
  std::vector<std::string> groups;
};

class CMakeRegex {
 public:
  /// CMake's syntax (kwsys RegularExpression): ^ $ . [...] ( ) | * + ?, a backslash makes
  /// the next character literal, braces are literal, ranges in brackets are expanded as
  /// CMake does, and at most 9 groups. Null, with CMake's reason, when CMake would not
  /// compile the pattern, or LLVM's engine does not.
  static std::unique_ptr<CMakeRegex> Compile(std::string_view pattern, std::string* error);
  ~CMakeRegex();

  /// The leftmost match in `text`; its start is a beginning of line for ^, as CMake's
  /// find() treats every text it is given. POSIX picks the longest of the leftmost
  /// matches, where CMake takes the first alternative that matches.
  std::optional<RegexMatch> Find(std::string_view text) const;

  /// What one search of `input` bytes costs the evaluation's work budget (RegexWork).
  size_t SearchWork(size_t input) const;

  /// The POSIX form the pattern was translated to (for tests).
  const std::string& posix() const { return posix_; }
  /// About the number of states LLVM's engine compiles the pattern to (regcomp.c's strip:
  /// one an atom or parenthesis, more an operator).
  size_t states() const { return states_; }

 private:
  CMakeRegex() = default;
  std::string posix_;
  size_t states_ = 0;
  std::unique_ptr<llvm::Regex> re_;
};

/// The bytes of input one search may be given: larger inputs are left unevaluated.
constexpr size_t kMaxRegexInput = 64 * 1024;

/// What one search of `input` bytes with a pattern of `states` costs the evaluation's work
/// budget, charged before the search is made: matching with groups takes up to ~200 ns a
/// byte, copying a value ~1 ns. A pattern of more than 64 states leaves the engine's bit-set
/// matcher for the one that steps each state over each byte (regexec.c: smatcher and
/// lmatcher), and a search takes input x states: a pattern of 400 alternatives (2,800
/// states) over a 1 MiB line took 6.8 s, 2.4 ns a byte and state, and one of 20,000 about
/// 6 s over 60 kB, while each was charged by its input alone.
constexpr size_t RegexWork(size_t input, size_t states) {
  return (input + 64) * (states > 64 ? 4 * states : 256);
}

}  // namespace rocm_audit
