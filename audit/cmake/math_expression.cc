#include "audit/cmake/math_expression.h"

#include <cctype>
#include <iterator>
#include <string_view>

namespace rocm_audit {
namespace {

class Parser {
 public:
  explicit Parser(std::string_view s) : s_(s) {}

  std::optional<int64_t> Run() {
    auto v = Or();
    Space();
    if (!v || at_ != s_.size()) return std::nullopt;
    return v;
  }

 private:
  void Space() {
    while (at_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[at_]))) ++at_;
  }
  bool Eat(std::string_view op) {
    Space();
    if (s_.substr(at_, op.size()) != op) return false;
    at_ += op.size();
    return true;
  }
  // Binary operators by precedence, loosest first; each level folds left to right.
  static constexpr std::string_view kLevels[][3] = {{"|"},        {"^"},      {"&"},
                                                    {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}};
  static constexpr size_t kLevelCount = std::size(kLevels);

  std::optional<int64_t> Or() { return Level(0); }

  std::optional<int64_t> Level(size_t level) {
    if (level == kLevelCount) return Unary();
    auto l = Level(level + 1);
    while (l) {
      std::string_view op;
      for (std::string_view candidate : kLevels[level])
        if (!candidate.empty() && Eat(candidate)) {
          op = candidate;
          break;
        }
      if (op.empty()) break;
      auto r = Level(level + 1);
      if (!r) return r;
      l = Apply(op, *l, *r);
    }
    return l;
  }

  // Two's-complement wrap like CMake's int64 arithmetic; nullopt where CMake errors.
  static std::optional<int64_t> Apply(std::string_view op, int64_t l, int64_t r) {
    const uint64_t ul = static_cast<uint64_t>(l), ur = static_cast<uint64_t>(r);
    if (op == "|") return l | r;
    if (op == "^") return l ^ r;
    if (op == "&") return l & r;
    if (op == "<<" || op == ">>") {
      if (r < 0 || r > 63) return std::nullopt;
      return op == "<<" ? static_cast<int64_t>(ul << r) : l >> r;
    }
    if (op == "+") return static_cast<int64_t>(ul + ur);
    if (op == "-") return static_cast<int64_t>(ul - ur);
    if (op == "*") return static_cast<int64_t>(ul * ur);
    if (r == 0 || (l == INT64_MIN && r == -1)) return std::nullopt;
    return op == "/" ? l / r : l % r;
  }

  std::optional<int64_t> Unary() {
    if (++depth_ > 64) return std::nullopt;
    std::optional<int64_t> v;
    if (Eat("-")) {
      v = Unary();
      if (v) *v = static_cast<int64_t>(0 - static_cast<uint64_t>(*v));
    } else if (Eat("+")) {
      v = Unary();
    } else if (Eat("~")) {
      v = Unary();
      if (v) *v = ~*v;
    } else if (Eat("(")) {
      v = Or();
      if (!Eat(")")) v.reset();
    } else {
      v = Number();
    }
    --depth_;
    return v;
  }
  std::optional<int64_t> Number() {
    Space();
    size_t start = at_;
    int base = 10;
    if (s_.substr(at_, 2) == "0x" || s_.substr(at_, 2) == "0X") base = 16, at_ += 2;
    uint64_t v = 0;
    size_t digits = 0;
    while (at_ < s_.size()) {
      char c = static_cast<char>(std::tolower(static_cast<unsigned char>(s_[at_])));
      int d = c >= '0' && c <= '9' ? c - '0' : (base == 16 && c >= 'a' && c <= 'f') ? c - 'a' + 10 : -1;
      if (d < 0) break;
      v = v * base + d;
      ++at_, ++digits;
    }
    if (!digits) {
      at_ = start;
      return std::nullopt;
    }
    return static_cast<int64_t>(v);
  }

  std::string_view s_;
  size_t at_ = 0;
  int depth_ = 0;
};

}  // namespace

std::optional<int64_t> EvaluateMathExpression(std::string_view expression) {
  return Parser(expression).Run();
}

}  // namespace rocm_audit
