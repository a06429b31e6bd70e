#include "audit/cmake/cmake_regex.h"

#include <bitset>

#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Regex.h>

namespace rocm_audit {
namespace {

// kwsys RegularExpression::NSUBEXP counts the whole match as one.
constexpr int kMaxGroups = 9;

// A character outside brackets, as a literal of POSIX ERE.
void Literal(char c, std::string* out) {
  if (std::string_view("^.[$()|*+?{}\\").find(c) != std::string_view::npos) *out += '\\';
  *out += c;
}

// A POSIX bracket expression for the set kwsys built: ']' first, '-' last, '[' never
// before ':', '.' or '=' (no POSIX class, which kwsys does not know), '^' never first.
void Bracket(const std::bitset<256>& set, bool negate, std::string* out) {
  std::string plain;
  for (int c = 1; c < 256; ++c)
    if (set[c] && c != ']' && c != '-' && c != '[' && c != '^') plain += static_cast<char>(c);
  if (!negate && plain.empty() && !set[']'] && !set['['] && set['^']) {
    *out += set['-'] ? "[-^]" : "\\^";
    return;
  }
  *out += negate ? "[^" : "[";
  if (set[']']) *out += ']';
  *out += plain;
  if (set['[']) *out += '[';
  if (set['^']) *out += '^';
  if (set['-']) *out += '-';
  *out += ']';
}

// kwsys regatom's '[' case: `p` starts after the '['; returns the index after the ']'.
size_t ParseBracket(std::string_view p, size_t i, std::string* out, std::string* error) {
  bool negate = false;
  if (i < p.size() && p[i] == '^') negate = true, ++i;
  std::bitset<256> set;
  if (i < p.size() && (p[i] == ']' || p[i] == '-')) set.set(static_cast<unsigned char>(p[i++]));
  while (i < p.size() && p[i] != ']') {
    if (p[i] != '-') {
      set.set(static_cast<unsigned char>(p[i++]));
      continue;
    }
    ++i;
    if (i >= p.size() || p[i] == ']') {
      set.set('-');
      continue;
    }
    // The character before the '-' is already in; the range adds the ones after it.
    int from = static_cast<unsigned char>(p[i - 2]) + 1, to = static_cast<unsigned char>(p[i]);
    if (from > to + 1) {
      *error = "Invalid range in [].";
      return std::string_view::npos;
    }
    for (int c = from; c <= to; ++c) set.set(c);
    ++i;
  }
  if (i >= p.size()) {
    *error = "Unmatched [].";
    return std::string_view::npos;
  }
  Bracket(set, negate, out);
  return i + 1;
}

// The states LLVM's regcomp.c makes for an operator: '|' an OOR1 and OOR2 (and the OCH_
// and O_CH of its first), '*' OPLUS_, O_PLUS and a choice around them, '?' a choice.
size_t OperatorStates(char c) {
  switch (c) {
    case '|': return 2;
    case '*': return 6;
    case '+': return 2;
    case '?': return 4;
    default: return 1;
  }
}

// CMake's pattern in POSIX ERE; "" and `error` when CMake refuses it. `states`: about the
// number LLVM's engine compiles it to.
std::string ToPosix(std::string_view p, size_t* states, std::string* error) {
  std::string out;
  int groups = 0;
  *states = 1;  // OEND
  for (size_t i = 0; i < p.size();) {
    const char c = p[i++];
    *states += OperatorStates(c);
    if (c == '\\') {
      if (i >= p.size()) {
        *error = "Trailing backslash.";
        return {};
      }
      Literal(p[i++], &out);  // never a back-reference: CMake has none
    } else if (c == '[') {
      i = ParseBracket(p, i, &out, error);
      if (i == std::string_view::npos) return {};
    } else if (c == '(') {
      if (++groups > kMaxGroups) {
        *error = "Too many parentheses.";
        return {};
      }
      out += c;
    } else if (c == '{' || c == '}') {
      Literal(c, &out);
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::unique_ptr<CMakeRegex> CMakeRegex::Compile(std::string_view pattern, std::string* error) {
  std::unique_ptr<CMakeRegex> r(new CMakeRegex);
  r->posix_ = ToPosix(pattern, &r->states_, error);
  if (!error->empty()) return nullptr;
  r->re_ = std::make_unique<llvm::Regex>(r->posix_);
  if (!r->re_->isValid(*error)) return nullptr;
  return r;
}

CMakeRegex::~CMakeRegex() = default;

size_t CMakeRegex::SearchWork(size_t input) const { return RegexWork(input, states_); }

std::optional<RegexMatch> CMakeRegex::Find(std::string_view text) const {
  llvm::SmallVector<llvm::StringRef, kMaxGroups + 1> found;
  const llvm::StringRef in(text.data(), text.size());
  if (!re_->match(in, &found) || found.empty()) return std::nullopt;
  RegexMatch m;
  m.begin = static_cast<size_t>(found[0].data() - in.data());
  m.end = m.begin + found[0].size();
  for (const llvm::StringRef& g : found) m.groups.emplace_back(g.str());
  return m;
}

}  // namespace rocm_audit
