#include "audit/cmake/math_expression.h"

#include <cctype>

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
  // Binary levels, loosest first: | ^ & << >> + - * / %
  std::optional<int64_t> Or() {
    auto l = Xor();
    while (l && Eat("|")) {
      auto r = Xor();
      if (!r) return r;
      *l |= *r;
    }
    return l;
  }
  std::optional<int64_t> Xor() {
    auto l = And();
    while (l && Eat("^")) {
      auto r = And();
      if (!r) return r;
      *l ^= *r;
    }
    return l;
  }
  std::optional<int64_t> And() {
    auto l = Shift();
    while (l && Eat("&")) {
      auto r = Shift();
      if (!r) return r;
      *l &= *r;
    }
    return l;
  }
  std::optional<int64_t> Shift() {
    auto l = Sum();
    while (l) {
      bool left = Eat("<<");
      if (!left && !Eat(">>")) break;
      auto r = Sum();
      if (!r || *r < 0 || *r > 63) return std::nullopt;
      *l = left ? static_cast<int64_t>(static_cast<uint64_t>(*l) << *r) : *l >> *r;
    }
    return l;
  }
  std::optional<int64_t> Sum() {
    auto l = Product();
    while (l) {
      bool plus = Eat("+");
      if (!plus && !Eat("-")) break;
      auto r = Product();
      if (!r) return r;
      *l = static_cast<int64_t>(plus ? static_cast<uint64_t>(*l) + static_cast<uint64_t>(*r)
                                     : static_cast<uint64_t>(*l) - static_cast<uint64_t>(*r));
    }
    return l;
  }
  std::optional<int64_t> Product() {
    auto l = Unary();
    while (l) {
      char op = Eat("*") ? '*' : Eat("/") ? '/' : Eat("%") ? '%' : 0;
      if (!op) break;
      auto r = Unary();
      if (!r || (op != '*' && *r == 0)) return std::nullopt;
      if (op == '*')
        *l = static_cast<int64_t>(static_cast<uint64_t>(*l) * static_cast<uint64_t>(*r));
      else if (*l == INT64_MIN && *r == -1)
        return std::nullopt;
      else
        *l = op == '/' ? *l / *r : *l % *r;
    }
    return l;
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
