#include "audit/cmake/list_file.h"

#include <cctype>
#include <cstring>
#include <functional>

namespace rocm_audit {
namespace {

class Lexer {
 public:
  // The names and arguments come from disjoint parts of the text, so their text fits in its
  // size.
  explicit Lexer(std::string_view text) : s_(text), pool_(new char[text.size() + 1]) {}

  ListFile Parse() {
    ListFile out = ParseCommands();
    if (overflowed_) Fail(out, "arguments longer than the file");
    KeepExactly(out);
    return out;
  }

 private:
  ListFile ParseCommands() {
    ListFile out;
    while (true) {
      SkipSpaceAndComments(/*newlines=*/true);
      if (at_ >= s_.size()) break;
      if (!IsIdentStart(s_[at_])) {
        Fail(out, "expected a command name");
        break;
      }
      ListFileCommand cmd;
      cmd.line = line_;
      std::string name;
      while (at_ < s_.size() && IsIdent(s_[at_]))
        name += static_cast<char>(std::tolower(static_cast<unsigned char>(s_[at_++])));
      cmd.name = Keep(name);
      SkipSpaceAndComments(/*newlines=*/false);
      if (at_ >= s_.size() || s_[at_] != '(') {
        Fail(out, "expected '(' after command name");
        break;
      }
      ++at_;
      first_argument_.push_back(out.arguments.size());
      if (!ParseArguments(out)) break;
      out.commands.push_back(cmd);
    }
    return out;
  }

  // Copies the arguments' text into a buffer of its size and points them at it; trims the
  // vectors' spare room: the file is kept for the run.
  void KeepExactly(ListFile& out) {
    out.text_pool.reset(new char[used_ + 1]);
    std::memcpy(out.text_pool.get(), pool_.get(), used_);
    const auto moved = [&](std::string_view v) -> std::string_view {
      // "(" and ")" are literals, not in the pool
      if (std::less<const char*>{}(v.data(), pool_.get()) ||
          std::less<const char*>{}(pool_.get() + used_, v.data()))
        return v;
      return {out.text_pool.get() + (v.data() - pool_.get()), v.size()};
    };
    out.commands.shrink_to_fit();
    out.arguments.shrink_to_fit();
    for (ListFileArgument& a : out.arguments) a.text = moved(a.text);
    for (size_t i = 0; i < out.commands.size(); ++i) {
      ListFileCommand& c = out.commands[i];
      c.name = moved(c.name);
      const size_t first = first_argument_[i];
      const size_t last = i + 1 < first_argument_.size() ? first_argument_[i + 1] : out.arguments.size();
      c.args = std::span<const ListFileArgument>(out.arguments).subspan(first, last - first);
    }
  }

  // Each argument's text is taken from its own part of the file, so it always fits; were it
  // not to, the file is refused rather than cut.
  std::string_view Keep(const std::string& text) {
    if (used_ + text.size() > s_.size()) {
      overflowed_ = true;
      return {};
    }
    char* at = pool_.get() + used_;
    std::memcpy(at, text.data(), text.size());
    used_ += text.size();
    return {at, text.size()};
  }

  static bool IsIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
  static bool IsIdent(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

  ListFile& Fail(ListFile& out, const char* why) {
    out.error = why;
    out.error_line = line_;
    out.commands.clear();
    out.arguments.clear();
    first_argument_.clear();
    return out;
  }

  void Advance() {
    if (s_[at_] == '\n') ++line_;
    ++at_;
  }

  // "[==[" at `at_`: returns the number of '=' and moves past the opening; -1 when none.
  int BracketOpen() {
    if (at_ >= s_.size() || s_[at_] != '[') return -1;
    size_t p = at_ + 1;
    while (p < s_.size() && s_[p] == '=') ++p;
    if (p >= s_.size() || s_[p] != '[') return -1;
    int level = static_cast<int>(p - at_ - 1);
    at_ = p + 1;
    return level;
  }

  // Reads up to the matching "]==]"; false when the file ends first.
  bool BracketBody(int level, std::string* text) {
    std::string close = "]" + std::string(level, '=') + "]";
    size_t end = s_.find(close, at_);
    if (end == std::string_view::npos) return false;
    std::string_view body = s_.substr(at_, end - at_);
    for (char c : body)
      if (c == '\n') ++line_;
    // A newline right after the opening bracket is not part of the content.
    if (body.starts_with("\r\n"))
      body.remove_prefix(2);
    else if (body.starts_with("\n"))
      body.remove_prefix(1);
    if (text) *text = std::string(body);
    at_ = end + close.size();
    return true;
  }

  bool SkipComment() {
    ++at_;  // '#'
    int level = BracketOpen();
    if (level >= 0) return BracketBody(level, nullptr);
    while (at_ < s_.size() && s_[at_] != '\n') ++at_;
    return true;
  }

  void SkipSpaceAndComments(bool newlines) {
    while (at_ < s_.size()) {
      char c = s_[at_];
      if (c == ' ' || c == '\t' || c == '\r' || (newlines && c == '\n')) {
        Advance();
      } else if (newlines && c == '#') {
        if (!SkipComment()) return;
      } else {
        return;
      }
    }
  }

  // Appends the command's arguments to `out.arguments`.
  bool ParseArguments(ListFile& out) {
    int depth = 0;
    while (true) {
      if (at_ >= s_.size()) return Fail(out, "unterminated argument list"), false;
      char c = s_[at_];
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
        Advance();
      } else if (c == '#') {
        if (!SkipComment()) return Fail(out, "unterminated bracket comment"), false;
      } else if (c == '(') {
        ++depth;
        ++at_;
        out.arguments.push_back({"(", ListFileArgument::kUnquoted});  // a literal: kept as it is
      } else if (c == ')') {
        ++at_;
        if (depth == 0) return true;
        --depth;
        out.arguments.push_back({")", ListFileArgument::kUnquoted});
      } else if (c == '"') {
        std::string text;
        if (!Quoted(&text)) return Fail(out, "unterminated quoted argument"), false;
        out.arguments.push_back({Keep(text), ListFileArgument::kQuoted});
      } else if (int level = BracketOpen(); level >= 0) {
        std::string text;
        if (!BracketBody(level, &text)) return Fail(out, "unterminated bracket argument"), false;
        out.arguments.push_back({Keep(text), ListFileArgument::kBracket});
      } else {
        out.arguments.push_back({Keep(Unquoted()), ListFileArgument::kUnquoted});
      }
    }
  }

  bool Quoted(std::string* text) {
    ++at_;  // opening quote
    while (at_ < s_.size()) {
      char c = s_[at_];
      if (c == '"') {
        ++at_;
        return true;
      }
      if (c == '\\' && at_ + 1 < s_.size()) {
        if (s_[at_ + 1] == '\n') {  // line continuation: both characters vanish
          at_ += 2;
          ++line_;
          continue;
        }
        *text += c;
        *text += s_[at_ + 1];
        at_ += 2;
        continue;
      }
      *text += c;
      Advance();
    }
    return false;
  }

  // Unquoted: up to whitespace, a parenthesis, '#' or a quote; "\x" escapes stay raw. A
  // quote inside an unquoted argument (legacy a="b c") is taken up to its closing quote.
  std::string Unquoted() {
    std::string text;
    while (at_ < s_.size()) {
      char c = s_[at_];
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '(' || c == ')' || c == '#') break;
      if (c == '\\' && at_ + 1 < s_.size()) {
        text += c;
        text += s_[at_ + 1];
        at_ += 2;
        continue;
      }
      if (c == '"') {
        if (text.empty()) break;
        size_t close = s_.find('"', at_ + 1);
        if (close == std::string_view::npos) break;
        for (size_t p = at_; p <= close; ++p) {
          if (s_[p] == '\n') ++line_;
          text += s_[p];
        }
        at_ = close + 1;
        continue;
      }
      if (c == '$' && at_ + 1 < s_.size() && s_[at_ + 1] == '{') {
        // A variable reference may hold characters that end an argument elsewhere.
        size_t close = s_.find('}', at_);
        if (close != std::string_view::npos &&
            s_.substr(at_, close - at_).find_first_of(" \t\n") == std::string_view::npos) {
          text += s_.substr(at_, close + 1 - at_);
          at_ = close + 1;
          continue;
        }
      }
      text += c;
      ++at_;
    }
    return text;
  }

  std::string_view s_;
  std::unique_ptr<char[]> pool_;        ///< the names' and arguments' text while parsing
  std::vector<size_t> first_argument_;  ///< each command's first in `arguments`, while parsing
  size_t used_ = 0;
  bool overflowed_ = false;
  size_t at_ = 0;
  int line_ = 1;
};

}  // namespace

ListFile ParseListFile(std::string_view text) { return Lexer(text).Parse(); }

}  // namespace rocm_audit
