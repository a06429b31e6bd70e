// string(): a subcommand table. Each subcommand keeps CMake's result, or an unknown one when
// an input is unknown; TIMESTAMP, UUID, HASH, JSON, ... are recorded as not evaluated.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>

#include "audit/cmake/arg_values.h"
#include "audit/cmake/cmake_regex.h"
#include "audit/cmake/commands.h"
#include "audit/cmake/name_table.h"

namespace rocm_audit {
namespace {

/// Runs string(<op> ...); false when the arguments are not what it takes.
using StringOp = bool (*)(Interpreter& in, const std::string& op, const Args& a);

bool SetUnknown(Interpreter& in, const std::string& var, const CMakeValue& from) {
  in.Set(var, CMakeValue::Unknown(from.why));
  return true;
}

bool Replace(Interpreter& in, const std::string&, const Args& a) {
  if (a.size() < 4) return false;
  const std::string& out = a[3].value.text;
  CMakeValue input = Concat(a, 4);
  if (!a[1].value.known || !a[2].value.known || !input.known)
    return SetUnknown(in, out, !input.known ? input : a[1].value.known ? a[2].value : a[1].value);
  std::string s = input.text;
  const std::string& from = a[1].value.text;
  if (!from.empty())
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + a[2].value.text.size()))
      s.replace(at, from.size(), a[2].value.text);
  in.Set(out, {s});
  return true;
}

// REGEX REPLACE's replacement as CMake parses it (cmStringReplaceHelper): \0-\9 name
// groups, \n and \\ are a newline and a backslash, any other escape is an error.
struct Replacement {
  std::vector<std::pair<std::string, int>> parts;  // literal text, or a group (>= 0)
  std::string error;
};

Replacement ParseReplacement(std::string_view r) {
  Replacement out;
  std::string literal;
  for (size_t i = 0; i < r.size(); ++i) {
    if (r[i] != '\\') {
      literal += r[i];
      continue;
    }
    if (i + 1 == r.size()) {
      out.error = "the replacement ends in a backslash";
      return out;
    }
    const char c = r[++i];
    if (c >= '0' && c <= '9') {
      out.parts.push_back({std::move(literal), -1});
      literal.clear();
      out.parts.push_back({"", c - '0'});
    } else if (c == 'n' || c == '\\') {
      literal += c == 'n' ? '\n' : '\\';
    } else {
      out.error = "an unknown escape in the replacement";
      return out;
    }
  }
  out.parts.push_back({std::move(literal), -1});
  return out;
}

constexpr const char* kBudgetSpent = "the evaluation's work budget ran out";

// Every match in turn, as CMake's MATCHALL and REPLACE search: each search starts where the
// last match ended, and that start is a beginning of line for ^. An empty match is an error
// in CMake. Each search is charged to the evaluation's work.
bool EachMatch(Interpreter& in, const CMakeRegex& re, const std::string& text,
               const std::function<void(const RegexMatch&, size_t at)>& take, std::string* error) {
  for (size_t at = 0; at < text.size();) {
    in.Charge(re.SearchWork(text.size() - at));
    if (in.OverBudget()) {
      *error = kBudgetSpent;
      return false;
    }
    std::optional<RegexMatch> m = re.Find(std::string_view(text).substr(at));
    if (!m) break;
    if (m->end == m->begin) {
      *error = "the regular expression matched an empty string, which CMake refuses";
      return false;
    }
    take(*m, at);
    at += m->end;
  }
  return true;
}

bool Regex(Interpreter& in, const std::string&, const Args& a) {
  if (a.size() < 5) return false;
  const std::string mode = a[1].value.text;
  const std::string& pattern = a[2].value.text;
  const size_t out_at = mode == "REPLACE" ? 4 : 3;
  if (a.size() <= out_at) return true;
  const std::string& out = a[out_at].value.text;
  CMakeValue input = Concat(a, out_at + 1);
  if (!a[2].value.known || !input.known || (mode == "REPLACE" && !a[3].value.known))
    return SetUnknown(in, out, !input.known ? input : a[2].value);
  if (input.text.size() > kMaxRegexInput) {
    in.Set(out, CMakeValue::Unknown("a string too long to match"));
    return true;
  }
  std::string error;
  std::unique_ptr<CMakeRegex> re = CMakeRegex::Compile(pattern, &error);
  if (!re) {
    in.Skip("string",
            "string(REGEX " + mode + "): a regular expression that does not compile (" + error + ")");
    in.Set(out, CMakeValue::Unknown("a regular expression that does not compile"));
    return true;
  }
  const std::string& text = input.text;
  std::string result;
  if (mode == "MATCH") {
    // Charged before the search, as each of EachMatch's.
    in.Charge(re->SearchWork(text.size()));
    if (in.OverBudget()) {
      error = kBudgetSpent;
    } else {
      std::optional<RegexMatch> m = re->Find(text);
      in.StoreMatches(m ? m->groups : std::vector<std::string>{});
      if (m) result = m->groups[0];
    }
  } else if (mode == "MATCHALL") {
    std::vector<std::string> all, last;
    if (EachMatch(
            in, *re, text,
            [&](const RegexMatch& m, size_t) {
              all.push_back(m.groups[0]);
              last = m.groups;
            },
            &error)) {
      result = JoinList(all);
      in.StoreMatches(last);
    }
  } else if (mode == "REPLACE") {
    Replacement r = ParseReplacement(a[3].value.text);
    error = r.error;
    size_t copied = 0;
    std::vector<std::string> last;
    if (error.empty() && EachMatch(
                             in, *re, text,
                             [&](const RegexMatch& m, size_t at) {
                               // Each match may add the whole replacement: bounded as a value.
                               if (result.size() > in.limits().max_value_bytes) return;
                               result.append(text, copied, at + m.begin - copied);
                               for (const auto& [literal, group] : r.parts)
                                 result += group < 0                                      ? literal
                                           : static_cast<size_t>(group) < m.groups.size() ? m.groups[group]
                                                                                          : "";
                               copied = at + m.end;
                               last = m.groups;
                             },
                             &error))
      result.append(text, copied);
    in.StoreMatches(last);  // cmStringReplaceHelper stores each match, as MATCHALL
  } else {
    return false;
  }
  if (!error.empty()) {
    in.Skip("string", "string(REGEX " + mode + "): " + error);
    in.Set(out, CMakeValue::Unknown("string(REGEX " + mode + ")"));
  } else {
    in.Set(out, {result});  // past max_value_bytes: unknown, and recorded
  }
  return true;
}

std::string GenexStrip(const std::string& s) {
  std::string stripped;
  int depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.compare(i, 2, "$<") == 0)
      ++depth, ++i;
    else if (depth && s[i] == '>')
      --depth;
    else if (!depth)
      stripped += s[i];
  }
  return stripped;
}

// TOLOWER, TOUPPER, MAKE_C_IDENTIFIER, GENEX_STRIP, STRIP: <input> <output>.
bool Transform(Interpreter& in, const std::string& op, const Args& a) {
  if (a.size() < 3) return false;
  const CMakeValue& input = a[1].value;
  const std::string& out = a[2].value.text;
  if (!input.known) return SetUnknown(in, out, input);
  std::string s = input.text;
  if (op == "TOLOWER") {
    s = ToLower(s);
  } else if (op == "TOUPPER") {
    s = ToUpper(s);
  } else if (op == "MAKE_C_IDENTIFIER") {
    for (char& c : s)
      if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    if (!s.empty() && std::isdigit(static_cast<unsigned char>(s[0]))) s = "_" + s;
  } else if (op == "STRIP") {
    size_t b = s.find_first_not_of(" \t\n\r"), e = s.find_last_not_of(" \t\n\r");
    s = b == std::string::npos ? "" : s.substr(b, e - b + 1);
  } else {
    s = GenexStrip(s);
  }
  in.Set(out, {s});
  return true;
}

bool Length(Interpreter& in, const std::string&, const Args& a) {
  if (a.size() < 3) return false;
  if (!a[1].value.known) return SetUnknown(in, a[2].value.text, a[1].value);
  in.Set(a[2].value.text, {std::to_string(a[1].value.text.size())});
  return true;
}

bool Substring(Interpreter& in, const std::string&, const Args& a) {
  if (a.size() < 5) return false;
  if (!a[1].value.known) return SetUnknown(in, a[4].value.text, a[1].value);
  size_t begin =
      std::min<size_t>(std::strtoull(a[2].value.text.c_str(), nullptr, 10), a[1].value.text.size());
  long long len = std::atoll(a[3].value.text.c_str());
  in.Set(a[4].value.text,
         {a[1].value.text.substr(begin, len < 0 ? std::string::npos : static_cast<size_t>(len))});
  return true;
}

bool Find(Interpreter& in, const std::string&, const Args& a) {
  if (a.size() < 4) return false;
  if (!a[1].value.known || !a[2].value.known)
    return SetUnknown(in, a[3].value.text, !a[1].value.known ? a[1].value : a[2].value);
  bool reverse = a.size() > 4 && a[4].value.text == "REVERSE";
  size_t at = reverse ? a[1].value.text.rfind(a[2].value.text) : a[1].value.text.find(a[2].value.text);
  in.Set(a[3].value.text, {at == std::string::npos ? "-1" : std::to_string(at)});
  return true;
}

// APPEND, PREPEND: <var> <input>...
bool Append(Interpreter& in, const std::string& op, const Args& a) {
  const std::string& var = a[1].value.text;
  const CMakeValue* cur = in.Get(var);
  CMakeValue add = Concat(a, 2);
  if ((cur && !cur->known) || !add.known) {
    in.Set(var, CMakeValue::Unknown(!add.known ? add.why : cur->why));
    return true;
  }
  std::string base = cur ? cur->text : "";
  in.Set(var, {op == "APPEND" ? base + add.text : add.text + base});
  return true;
}

bool ConcatOp(Interpreter& in, const std::string&, const Args& a) {
  in.Set(a[1].value.text, Concat(a, 2));
  return true;
}

bool Join(Interpreter& in, const std::string&, const Args& a) {
  if (a.size() < 3) return false;
  std::vector<std::string> parts;
  for (size_t k = 3; k < a.size(); ++k) {
    if (!a[k].value.known) return SetUnknown(in, a[2].value.text, a[k].value);
    parts.push_back(a[k].value.text);
  }
  in.Set(a[2].value.text, {JoinList(parts, a[1].value.text)});
  return true;
}

// As CMake: the count is an unsigned integer (cmStrToULong), else "repeat count is not a
// positive number". A result past the value bound is built only just past it, for Set to
// make unknown and record, as every other command's.
bool Repeat(Interpreter& in, const std::string&, const Args& a) {
  if (a.size() != 4) return false;
  const std::string& out = a[3].value.text;
  if (!a[1].value.known || !a[2].value.known)
    return SetUnknown(in, out, !a[1].value.known ? a[1].value : a[2].value);
  const std::string& text = a[2].value.text;
  const size_t digits = std::min(text.find_first_not_of(" \t\n\v\f\r"), text.size());
  errno = 0;
  char* end = nullptr;
  unsigned long long n = 0;
  if (digits < text.size() && text[digits] != '-') n = std::strtoull(text.c_str() + digits, &end, 10);
  if (!end || end == text.c_str() + digits || *end != '\0' || errno == ERANGE) {
    in.Fail("string(REPEAT): repeat count is not a positive number.");
    return true;
  }
  const std::string& unit = a[1].value.text;
  if (!unit.empty()) n = std::min<unsigned long long>(n, in.limits().max_value_bytes / unit.size() + 1);
  std::string s;
  s.reserve(unit.size() * n);
  for (unsigned long long k = 0; !unit.empty() && k < n; ++k) s += unit;
  in.Set(out, {std::move(s)});
  return true;
}

bool Compare(Interpreter& in, const std::string&, const Args& a) {
  if (a.size() < 5) return false;
  if (!a[2].value.known || !a[3].value.known)
    return SetUnknown(in, a[4].value.text, !a[2].value.known ? a[2].value : a[3].value);
  int c = a[2].value.text.compare(a[3].value.text);
  const std::string& k = a[1].value.text;
  bool r = k == "EQUAL"        ? c == 0
           : k == "NOTEQUAL"   ? c != 0
           : k == "LESS"       ? c < 0
           : k == "GREATER"    ? c > 0
           : k == "LESS_EQUAL" ? c <= 0
                               : c >= 0;
  in.Set(a[4].value.text, {r ? "1" : "0"});
  return true;
}

// string(RANDOM [LENGTH <n>] [ALPHABET <chars>] [RANDOM_SEED <seed>] <out>): <n> characters
// (5 by default) of the alphabet (letters and digits when none or empty), its arguments read
// as cmStringCommand's HandleRandomCommand reads them; the characters come from the
// interpreter's own sequence (NextRandom), so distinct calls differ, as JUCE's
// _juce_extract_metadata_block needs: it names a target after each.
bool Random(Interpreter& in, const std::string&, const Args& a) {
  if (a.size() < 2 || a.size() == 3 || a.size() == 5) {
    in.Fail("string sub-command RANDOM requires at least one argument.");
    return true;
  }
  long long length = 5;
  std::string alphabet;
  for (size_t k = 1; a.size() > 3 && k < a.size() - 2; ++k) {
    if (!a[k].value.known) return SetUnknown(in, a.back().value.text, a[k].value);
    const std::string& key = a[k].value.text;
    if (key != "LENGTH" && key != "ALPHABET" && key != "RANDOM_SEED") continue;
    const CMakeValue& value = a[++k].value;
    if (!value.known) return SetUnknown(in, a.back().value.text, value);
    if (key == "LENGTH") length = std::strtoll(value.text.c_str(), nullptr, 10);  // atoi's: "16x" is 16
    if (key == "ALPHABET") alphabet = value.text;
  }
  if (alphabet.empty()) alphabet = "qwertyuiopasdfghjklzxcvbnmQWERTYUIOPASDFGHJKLZXCVBNM0123456789";
  if (length < 1) {
    in.Fail("string sub-command RANDOM invoked with bad length.");
    return true;
  }
  const size_t n = std::min<unsigned long long>(length, in.limits().max_value_bytes);
  in.Charge(n);
  std::string s(n, ' ');
  for (char& c : s) c = alphabet[in.NextRandom() % alphabet.size()];
  in.Set(a.back().value.text, {std::move(s)});
  return true;
}

constexpr NameEntry<StringOp> kStringOps[] = {
    {"APPEND", Append},         {"COMPARE", Compare},
    {"CONCAT", ConcatOp},       {"FIND", Find},
    {"GENEX_STRIP", Transform}, {"JOIN", Join},
    {"LENGTH", Length},         {"MAKE_C_IDENTIFIER", Transform},
    {"PREPEND", Append},        {"RANDOM", Random},
    {"REGEX", Regex},           {"REPEAT", Repeat},
    {"REPLACE", Replace},       {"STRIP", Transform},
    {"SUBSTRING", Substring},   {"TOLOWER", Transform},
    {"TOUPPER", Transform},
};
static_assert(IsSorted(kStringOps));

}  // namespace

Flow StringCommand(Interpreter& in, const std::string&, const Args& a) {
  if (a.size() < 2) return Flow::kNormal;
  const std::string op = a[0].value.text;
  // CMake's error (cmStringCommand), reported without stopping: an unquoted argument that
  // expanded to nothing is no argument (Hiredis' version file without a version asked).
  if (op == "REPLACE" && a.size() < 5) {  // REPLACE <match> <replace> <out> <input>...
    in.Fail("string sub-command REPLACE requires at least four arguments.");
    return Flow::kNormal;
  }
  StringOp run = FindIn(kStringOps, op);
  if (!run || !run(in, op, a)) in.Skip("string", "string(" + op + ") is not evaluated");
  return Flow::kNormal;
}

}  // namespace rocm_audit
