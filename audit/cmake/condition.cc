#include "audit/cmake/condition.h"

#include <algorithm>
#include <cstdlib>
#include <iterator>

#include "audit/cmake/cmake_regex.h"
#include "audit/cmake/lists.h"

namespace rocm_audit {
namespace {

struct Token {
  std::string text;
  bool quoted = false;
  bool known = true;
  std::string why;
  bool result = false;  ///< produced by an operator: a plain boolean, never a variable name
};

Token ResultToken(Tri t, std::string why = {}) {
  Token r;
  r.result = true;
  r.quoted = true;
  if (t == Tri::kUnknown) {
    r.known = false;
    r.why = std::move(why);
  } else {
    r.text = t == Tri::kTrue ? "1" : "0";
  }
  return r;
}

class Evaluator {
 public:
  Evaluator(const ConditionContext& c, ConditionResult* out) : c_(c), out_(out) {}

  // Reduces a token list to one boolean.
  Token Reduce(std::vector<Token> t) {
    if (depth_ == kMaxConditionNesting)
      return ResultToken(Tri::kUnknown, "a condition nested deeper than " +
                                            std::to_string(kMaxConditionNesting) + " parentheses");
    // Every pass below reads each token of this level once.
    if (c_.charge) {
      size_t bytes = 0;
      for (const Token& k : t) bytes += k.text.size() + kConditionTokenWork;
      c_.charge(bytes);
    }
    ++depth_;
    Token r = ReduceFlat(std::move(t));
    --depth_;
    return r;
  }

 private:
  Token ReduceFlat(std::vector<Token> t) {
    Parens(t);
    Unary(t);
    Binary(t);
    Not(t);
    AndOr(t);
    if (t.empty()) return ResultToken(Tri::kFalse);
    if (t.size() > 1) {
      // CMake reports "Unknown arguments specified"; the condition fails.
      return ResultToken(Tri::kFalse);
    }
    why_.clear();
    Tri v = Truth(t[0]);
    return ResultToken(v, t[0].known ? why_ : t[0].why);
  }

  // The value of an operand: an unquoted operand naming a defined variable is its value.
  Token Deref(const Token& t) {
    if (t.quoted || t.result || !t.known) return t;
    if (const CMakeValue* v = c_.variable(t.text)) {
      Token r{v->text, true, v->known, v->why};
      return r;
    }
    return t;
  }

  Tri Truth(const Token& t) {
    if (!t.known) return Tri::kUnknown;
    if (t.result) return t.text == "1" ? Tri::kTrue : Tri::kFalse;
    if (IsTrueConstant(t.text)) return Tri::kTrue;
    if (IsFalseConstant(t.text)) return Tri::kFalse;
    if (t.quoted) return Tri::kFalse;
    const CMakeValue* v = c_.variable(t.text);
    if (!v) return Tri::kFalse;
    if (!v->known) {
      why_ = v->why;
      return Tri::kUnknown;
    }
    return IsFalseConstant(v->text) ? Tri::kFalse : Tri::kTrue;
  }

  // Each pass builds the reduced list anew, in one sweep, so that a pass is linear in the
  // arguments (erasing each reduced group in place would make it quadratic).
  void Parens(std::vector<Token>& t) {
    std::vector<Token> out;
    out.reserve(t.size());
    for (size_t i = 0; i < t.size(); ++i) {
      if (t[i].quoted || t[i].text != "(") {
        out.push_back(std::move(t[i]));
        continue;
      }
      int depth = 0;
      size_t j = i;
      for (; j < t.size(); ++j) {
        if (t[j].quoted) continue;
        if (t[j].text == "(") ++depth;
        if (t[j].text == ")" && --depth == 0) break;
      }
      if (j >= t.size()) {  // unbalanced: CMake fails the condition; the rest stays as it is
        std::move(t.begin() + i, t.end(), std::back_inserter(out));
        break;
      }
      std::vector<Token> inner(std::make_move_iterator(t.begin() + i + 1),
                               std::make_move_iterator(t.begin() + j));
      out.push_back(Reduce(std::move(inner)));
      i = j;
    }
    t = std::move(out);
  }

  bool IsKeyword(const Token& t, std::string_view k) {
    return !t.quoted && !t.result && t.known && t.text == k;
  }

  Tri PathTest(const std::function<Tri(const std::string&)>& test, const Token& arg, bool record_missing) {
    if (!arg.known) return Tri::kUnknown;
    if (arg.text.empty() || !test) return Tri::kFalse;
    Tri r = test(arg.text);
    if (record_missing && r == Tri::kFalse) out_->missing.push_back(arg.text);
    return r;
  }

  void Unary(std::vector<Token>& t) {
    std::vector<Token> out;
    out.reserve(t.size());
    for (size_t i = 0; i < t.size(); ++i) {
      if (i + 1 == t.size()) {
        out.push_back(std::move(t[i]));
        break;
      }
      const Token& a = t[i + 1];
      Tri r;
      std::string why = a.why;
      if (IsKeyword(t[i], "EXISTS")) {
        r = PathTest(c_.exists, a, true);
      } else if (IsKeyword(t[i], "IS_DIRECTORY")) {
        r = PathTest(c_.is_directory, a, false);
      } else if (IsKeyword(t[i], "IS_SYMLINK")) {
        r = PathTest(c_.is_symlink, a, false);
      } else if (IsKeyword(t[i], "IS_READABLE")) {
        r = PathTest(c_.exists, a, false);
      } else if (IsKeyword(t[i], "IS_ABSOLUTE")) {
        r = !a.known ? Tri::kUnknown : (a.text.starts_with("/") ? Tri::kTrue : Tri::kFalse);
      } else if (IsKeyword(t[i], "DEFINED")) {
        r = Defined(a, &why);
      } else if (IsKeyword(t[i], "TARGET")) {
        r = !a.known ? Tri::kUnknown : c_.target(a.text);
        if (r == Tri::kUnknown && a.known) why = "whether target " + a.text + " is defined by a dependency";
      } else if (IsKeyword(t[i], "COMMAND")) {
        r = !a.known ? Tri::kUnknown : c_.command(a.text);
      } else if (IsKeyword(t[i], "POLICY")) {
        r = Tri::kTrue;
      } else if (IsKeyword(t[i], "TEST")) {
        r = Tri::kFalse;
      } else {
        out.push_back(std::move(t[i]));
        continue;
      }
      out.push_back(ResultToken(r, why));
      ++i;  // the operand is used up
    }
    t = std::move(out);
  }

  Tri Defined(const Token& a, std::string* why) {
    if (!a.known) return Tri::kUnknown;
    std::string_view name = a.text;
    if (name.starts_with("ENV{") && name.ends_with("}")) {
      if (c_.env_defined) return c_.env_defined(name.substr(4, name.size() - 5)) ? Tri::kTrue : Tri::kFalse;
      *why = "the consumer's environment (" + std::string(name.substr(4, name.size() - 5)) + ")";
      return Tri::kUnknown;
    }
    if (name.starts_with("CACHE{") && name.ends_with("}")) name = name.substr(6, name.size() - 7);
    const CMakeValue* v = c_.variable(name);
    if (v && v->maybe_unset) {
      *why = "whether " + std::string(name) + " is set (" + v->why + ")";
      return Tri::kUnknown;
    }
    return v ? Tri::kTrue : Tri::kFalse;
  }

  static bool Number(const std::string& s, double* v) {
    char* end = nullptr;
    *v = std::strtod(s.c_str(), &end);
    return !s.empty() && end && *end == 0;
  }

  static bool IsBinaryOperator(const Token& t) {
    if (t.quoted || t.result || !t.known) return false;
    static const char* kOps[] = {"MATCHES",
                                 "LESS",
                                 "GREATER",
                                 "EQUAL",
                                 "LESS_EQUAL",
                                 "GREATER_EQUAL",
                                 "STRLESS",
                                 "STRGREATER",
                                 "STREQUAL",
                                 "STRLESS_EQUAL",
                                 "STRGREATER_EQUAL",
                                 "VERSION_LESS",
                                 "VERSION_GREATER",
                                 "VERSION_EQUAL",
                                 "VERSION_LESS_EQUAL",
                                 "VERSION_GREATER_EQUAL",
                                 "IN_LIST",
                                 "PATH_EQUAL",
                                 "IS_NEWER_THAN"};
    for (const char* o : kOps)
      if (t.text == o) return true;
    return false;
  }

  // Left to right, each operator taking what is before it, a result included, as its left
  // operand.
  void Binary(std::vector<Token>& t) {
    if (t.empty()) return;
    std::vector<Token> out;
    out.reserve(t.size());
    out.push_back(std::move(t[0]));
    for (size_t i = 1; i < t.size(); ++i) {
      if (!IsBinaryOperator(t[i]) || i + 1 == t.size()) {
        out.push_back(std::move(t[i]));
        continue;
      }
      const std::string& k = t[i].text;
      Token lhs = Deref(out.back());
      Token rhs = k == "IN_LIST" ? t[i + 1] : Deref(t[i + 1]);
      Tri r;
      std::string why = !lhs.known ? lhs.why : rhs.why;
      if (!lhs.known || !rhs.known) {
        r = Tri::kUnknown;
      } else if (k == "IN_LIST") {
        // cmConditionEvaluator (CMP0057): the right operand is always a variable's name,
        // quoted or not (VTK 9.3's config tests x IN_LIST "${CMAKE_FIND_PACKAGE_NAME}_FIND_COMPONENTS");
        // its value is split keeping empty items (cmExpandedList(*rhs, true)).
        r = Tri::kFalse;
        const CMakeValue* list = c_.variable(rhs.text);
        if (list && !list->known) {
          r = Tri::kUnknown;
          why = list->why;
        } else if (list) {
          for (const std::string& item : SplitList(list->text, true))
            if (item == lhs.text) r = Tri::kTrue;
        }
      } else if (k == "MATCHES") {
        r = Matches(lhs.text, rhs.text, &why);
      } else if (k.starts_with("VERSION_")) {
        int c = CompareVersions(lhs.text, rhs.text);
        r = Compare(k.substr(8), c);
      } else if (k.starts_with("STR")) {
        int c = lhs.text.compare(rhs.text);
        r = Compare(k == "STREQUAL" ? "EQUAL" : k.substr(3), c);
      } else if (k == "PATH_EQUAL") {
        r = lhs.text == rhs.text ? Tri::kTrue : Tri::kFalse;
      } else if (k == "IS_NEWER_THAN") {
        r = Tri::kUnknown;
        why = "file times";
      } else {
        double a, b;
        if (!Number(lhs.text, &a) || !Number(rhs.text, &b))
          r = Tri::kFalse;
        else
          r = Compare(k, a < b ? -1 : a > b ? 1 : 0);
      }
      out.back() = ResultToken(r, why);
      ++i;  // the right operand is used up
    }
    t = std::move(out);
  }

  static Tri Compare(std::string_view k, int c) {
    bool v = k == "LESS"            ? c < 0
             : k == "GREATER"       ? c > 0
             : k == "EQUAL"         ? c == 0
             : k == "LESS_EQUAL"    ? c <= 0
             : k == "GREATER_EQUAL" ? c >= 0
                                    : false;
    return v ? Tri::kTrue : Tri::kFalse;
  }

  Tri Matches(const std::string& text, const std::string& pattern, std::string* why) {
    if (text.size() > kMaxRegexInput) {
      *why = "a string longer than " + std::to_string(kMaxRegexInput) + " bytes to match";
      return Tri::kUnknown;
    }
    std::string error;
    std::unique_ptr<CMakeRegex> re = CMakeRegex::Compile(pattern, &error);
    if (!re) return Tri::kFalse;  // CMake: "Regular expression cannot compile"
    if (c_.charge && !c_.charge(re->SearchWork(text.size()))) {
      *why = "a regular-expression search past the evaluation's work budget";
      return Tri::kUnknown;
    }
    std::optional<RegexMatch> m = re->Find(text);
    if (c_.set_matches) c_.set_matches(m ? m->groups : std::vector<std::string>{});
    return m ? Tri::kTrue : Tri::kFalse;
  }

  // Left to right, each NOT taking the argument after it, as CMake 3.25 does: in NOT NOT x
  // the first NOT takes the second as a variable name, and two arguments are left (CMake:
  // "Unknown arguments specified").
  void Not(std::vector<Token>& t) {
    std::vector<Token> out;
    out.reserve(t.size());
    for (size_t i = 0; i < t.size(); ++i) {
      if (i + 1 == t.size() || !IsKeyword(t[i], "NOT")) {
        out.push_back(std::move(t[i]));
        continue;
      }
      Tri v = Truth(t[i + 1]);
      std::string why = t[i + 1].known ? why_ : t[i + 1].why;
      out.push_back(ResultToken(v == Tri::kUnknown ? v : v == Tri::kTrue ? Tri::kFalse : Tri::kTrue, why));
      ++i;  // the operand is used up
    }
    t = std::move(out);
  }

  void AndOr(std::vector<Token>& t) {
    if (t.empty()) return;
    std::vector<Token> out;
    out.reserve(t.size());
    out.push_back(std::move(t[0]));
    for (size_t i = 1; i < t.size(); ++i) {
      bool is_and = IsKeyword(t[i], "AND"), is_or = IsKeyword(t[i], "OR");
      if ((!is_and && !is_or) || i + 1 == t.size()) {
        out.push_back(std::move(t[i]));
        continue;
      }
      why_.clear();
      Tri a = Truth(out.back());
      std::string why_a = out.back().known ? why_ : out.back().why;
      why_.clear();
      Tri b = Truth(t[i + 1]);
      std::string why_b = t[i + 1].known ? why_ : t[i + 1].why;
      const Tri r = is_and ? TriAnd(a, b) : TriOr(a, b);
      out.back() = ResultToken(r, a == Tri::kUnknown ? why_a : why_b);
      ++i;  // the right operand is used up
    }
    t = std::move(out);
  }

 public:
  std::string why_;  ///< why the last Truth() of a variable was unknown

 private:
  int depth_ = 0;  // Reduce() calls under way: one per parenthesis level
  const ConditionContext& c_;
  ConditionResult* out_;
};

}  // namespace

int CompareVersions(std::string_view a, std::string_view b) {
  auto next = [](std::string_view& s) -> unsigned long long {
    unsigned long long v = 0;
    size_t i = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') v = v * 10 + (s[i++] - '0');
    while (i < s.size() && s[i] != '.') ++i;  // a non-numeric tail of a component is ignored
    s.remove_prefix(i < s.size() ? i + 1 : i);
    return v;
  };
  while (!a.empty() || !b.empty()) {
    unsigned long long x = next(a), y = next(b);
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

ConditionResult EvaluateCondition(std::vector<ConditionArg> args, const ConditionContext& context) {
  ConditionResult out;
  if (args.size() > kMaxConditionArgs) {
    out.value = Tri::kUnknown;
    out.why = "a condition of more than " + std::to_string(kMaxConditionArgs) + " arguments";
    return out;
  }
  std::vector<Token> tokens;
  for (ConditionArg& a : args)
    tokens.push_back({std::move(a.value.text), a.quoted, a.value.known, std::move(a.value.why)});
  Evaluator e(context, &out);
  Token r = e.Reduce(std::move(tokens));
  if (!r.known) {
    out.value = Tri::kUnknown;
    out.why = !r.why.empty() ? r.why : e.why_;
  } else {
    out.value = r.text == "1" ? Tri::kTrue : Tri::kFalse;
  }
  return out;
}

}  // namespace rocm_audit
