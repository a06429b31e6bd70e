// set, unset, option, list, string, math, cmake_parse_arguments, separate_arguments: the
// commands that only compute values. Each keeps CMake's result, or an unknown one when an
// input is unknown.
#include <algorithm>
#include <regex>

#include "audit/cmake/evaluator.h"
#include "audit/cmake/lists.h"
#include "audit/cmake/math_expression.h"

namespace rocm_audit {
namespace {

constexpr size_t kMaxRegexInput = 64 * 1024;

template <typename Args>
CMakeValue JoinArgs(const Args& a, size_t from, size_t to) {
  std::vector<std::string> texts;
  for (size_t k = from; k < to && k < a.size(); ++k) {
    if (!a[k].value.known) return CMakeValue::Unknown(a[k].value.why);
    texts.push_back(a[k].value.text);
  }
  return {JoinList(texts)};
}

template <typename Args>
CMakeValue Concat(const Args& a, size_t from) {
  std::string text;
  for (size_t k = from; k < a.size(); ++k) {
    if (!a[k].value.known) return CMakeValue::Unknown(a[k].value.why);
    text += a[k].value.text;
  }
  return {text};
}

// CMake's replacement syntax (\1) in std::regex's ($1).
std::string ReplacementFormat(std::string_view cmake) {
  std::string out;
  for (size_t i = 0; i < cmake.size(); ++i) {
    if (cmake[i] == '\\' && i + 1 < cmake.size() && cmake[i + 1] >= '0' && cmake[i + 1] <= '9') {
      out += '$';
      out += cmake[++i];
    } else if (cmake[i] == '$') {
      out += "$$";
    } else {
      out += cmake[i];
    }
  }
  return out;
}

}  // namespace

bool CMakeEvaluator::Data(const std::string& n, const std::vector<Arg>& a) {
  if (n == "set") {
    if (a.empty() || !a[0].value.known) return true;
    size_t end = a.size();
    bool parent = false, cache = false;
    for (size_t k = 1; k < a.size(); ++k) {
      if (a[k].quoted) continue;
      if (a[k].value.text == "PARENT_SCOPE" && k + 1 == a.size()) parent = true, end = k;
      if (a[k].value.text == "CACHE") {
        cache = true;
        end = k;
        break;
      }
    }
    if (end == 1 && !cache) {
      Unset(a[0].value.text, parent);
      return true;
    }
    bool force = cache && a.back().value.text == "FORCE";
    if (cache && !force && Get(a[0].value.text)) return true;
    Set(a[0].value.text, JoinArgs(a, 1, end), parent);
    return true;
  }
  if (n == "unset") {
    if (!a.empty() && a[0].value.known)
      Unset(a[0].value.text, a.size() > 1 && a[1].value.text == "PARENT_SCOPE");
    return true;
  }
  if (n == "option") {
    if (a.size() >= 1 && !Get(a[0].value.text))
      Set(a[0].value.text, {a.size() >= 3 ? a[2].value.text : "OFF"});
    return true;
  }
  if (n == "list") {
    ListCommand(a);
    return true;
  }
  if (n == "string") {
    StringCommand(a);
    return true;
  }
  if (n == "math") {
    if (a.size() < 3 || a[0].value.text != "EXPR") return true;
    if (!a[2].value.known) {
      Set(a[1].value.text, a[2].value);
      return true;
    }
    auto v = EvaluateMathExpression(a[2].value.text);
    bool hex = a.size() >= 5 && a[4].value.text == "HEXADECIMAL";
    if (!v) {
      Set(a[1].value.text,
          CMakeValue::Unknown("math(EXPR \"" + a[2].value.text + "\"), which rocm-audit cannot evaluate"));
      return true;
    }
    char buf[32];
    snprintf(buf, sizeof buf, hex ? "0x%llx" : "%lld", static_cast<long long>(*v));
    Set(a[1].value.text, {buf});
    return true;
  }
  if (n == "cmake_parse_arguments") {
    ParseArguments(a);
    return true;
  }
  if (n == "separate_arguments") {
    if (a.empty()) return true;
    const CMakeValue* v = a.size() >= 3 ? &a[2].value : Get(a[0].value.text);
    if (!v) return true;
    if (!v->known) {
      Set(a[0].value.text, *v);
      return true;
    }
    std::vector<std::string> words;
    std::string word;
    for (char c : v->text) {
      if (c == ' ' || c == '\t' || c == '\n') {
        if (!word.empty()) words.push_back(word);
        word.clear();
      } else {
        word += c;
      }
    }
    if (!word.empty()) words.push_back(word);
    Set(a[0].value.text, {JoinList(words)});
    return true;
  }
  return false;
}

void CMakeEvaluator::ListCommand(const std::vector<Arg>& a) {
  if (a.size() < 2 || !a[1].value.known) return;
  const std::string& op = a[0].value.text;
  const std::string& var = a[1].value.text;
  const CMakeValue* current = Get(var);
  CMakeValue list = current ? *current : CMakeValue{};
  auto items = [&] { return SplitList(list.text); };

  // Generated Targets files list the files each imported target needs; CMake checks them
  // at the end of the file and stops the configure when one is missing.
  if (op == "APPEND" &&
      (var.starts_with("_cmake_import_check_files_for_") || var.starts_with("_IMPORT_CHECK_FILES_FOR_"))) {
    std::string target =
        var.substr(var.find("_for_") != std::string::npos ? var.find("_for_") + 5 : var.find("_FOR_") + 5);
    for (size_t k = 2; k < a.size(); ++k)
      if (a[k].value.known)
        for (const std::string& f : SplitList(a[k].value.text)) Reference(f, "import-check-files", target);
  }

  if (op == "LENGTH" || op == "GET" || op == "FIND" || op == "JOIN" || op == "SUBLIST") {
    std::string out = a.back().value.text;
    if (!list.known) {
      Set(out, list);
      return;
    }
    std::vector<std::string> v = items();
    if (op == "LENGTH") {
      Set(out, {std::to_string(v.size())});
    } else if (op == "GET") {
      std::vector<std::string> got;
      for (size_t k = 2; k + 1 < a.size(); ++k) {
        long long i = std::atoll(a[k].value.text.c_str());
        if (i < 0) i += static_cast<long long>(v.size());
        if (i < 0 || i >= static_cast<long long>(v.size())) {
          Skip("list", "list(GET) index out of range");
          return;
        }
        got.push_back(v[static_cast<size_t>(i)]);
      }
      Set(out, {JoinList(got)});
    } else if (op == "FIND") {
      auto it = a.size() > 2 ? std::find(v.begin(), v.end(), a[2].value.text) : v.end();
      Set(out, {it == v.end() ? "-1" : std::to_string(it - v.begin())});
    } else if (op == "JOIN") {
      Set(out, {JoinList(v, a.size() > 2 ? a[2].value.text : "")});
    } else {
      size_t begin = a.size() > 2 ? std::strtoull(a[2].value.text.c_str(), nullptr, 10) : 0;
      long long len = a.size() > 3 ? std::atoll(a[3].value.text.c_str()) : -1;
      std::vector<std::string> sub;
      for (size_t k = begin; k < v.size() && (len < 0 || static_cast<long long>(sub.size()) < len); ++k)
        sub.push_back(v[k]);
      Set(out, {JoinList(sub)});
    }
    return;
  }
  // The remaining operations modify the list in place.
  CMakeValue args = JoinArgs(a, 2, a.size());
  if (!list.known || !args.known) {
    if (op == "POP_BACK" || op == "POP_FRONT")
      for (size_t k = 2; k < a.size(); ++k)
        Set(a[k].value.text, CMakeValue::Unknown(!list.known ? list.why : args.why));
    Set(var, !list.known ? list : args);
    return;
  }
  std::vector<std::string> v = items();
  std::vector<std::string> add = SplitList(args.text);
  if (op == "APPEND") {
    v.insert(v.end(), add.begin(), add.end());
  } else if (op == "PREPEND") {
    v.insert(v.begin(), add.begin(), add.end());
  } else if (op == "INSERT" && !add.empty()) {
    size_t at = std::min<size_t>(std::strtoull(add[0].c_str(), nullptr, 10), v.size());
    v.insert(v.begin() + at, add.begin() + 1, add.end());
  } else if (op == "REMOVE_ITEM") {
    std::erase_if(v, [&](const std::string& s) { return std::find(add.begin(), add.end(), s) != add.end(); });
  } else if (op == "REMOVE_AT") {
    std::vector<std::string> kept;
    for (size_t k = 0; k < v.size(); ++k)
      if (std::find(add.begin(), add.end(), std::to_string(k)) == add.end()) kept.push_back(v[k]);
    v = kept;
  } else if (op == "REMOVE_DUPLICATES") {
    std::vector<std::string> kept;
    for (auto& s : v)
      if (std::find(kept.begin(), kept.end(), s) == kept.end()) kept.push_back(s);
    v = kept;
  } else if (op == "REVERSE") {
    std::reverse(v.begin(), v.end());
  } else if (op == "SORT") {
    std::sort(v.begin(), v.end());
  } else if (op == "POP_BACK" || op == "POP_FRONT") {
    bool back = op == "POP_BACK";
    for (size_t k = 2; k < a.size() || (k == 2 && a.size() == 2); ++k) {
      if (v.empty()) break;
      std::string item = back ? v.back() : v.front();
      if (back)
        v.pop_back();
      else
        v.erase(v.begin());
      if (k < a.size()) Set(a[k].value.text, {item});
      if (a.size() == 2) break;
    }
  } else if (op == "FILTER" && a.size() >= 5) {
    bool include = a[2].value.text == "INCLUDE";
    try {
      std::regex re(a[4].value.text, std::regex::extended);
      std::erase_if(v, [&](const std::string& s) { return std::regex_search(s, re) != include; });
    } catch (const std::regex_error&) {}
  } else if (op == "TRANSFORM" && a.size() >= 3) {
    const std::string& action = a[2].value.text;
    std::string output = var;
    for (size_t k = 3; k + 1 < a.size(); ++k)
      if (a[k].value.text == "OUTPUT_VARIABLE") output = a[k + 1].value.text;
    size_t grown = 0;
    for (std::string& s : v) {
      if ((grown += s.size() + (a.size() > 3 ? a[3].value.text.size() : 0)) > limits_.max_value_bytes) {
        ValueTooLong();
        Set(output,
            CMakeValue::Unknown("a list longer than " + std::to_string(limits_.max_value_bytes) + " bytes"));
        return;
      }
      if (action == "APPEND" && a.size() > 3)
        s += a[3].value.text;
      else if (action == "PREPEND" && a.size() > 3)
        s = a[3].value.text + s;
      else if (action == "TOLOWER")
        s = ToLower(s);
      else if (action == "TOUPPER")
        s = ToUpper(s);
      else if (action == "STRIP") {
        size_t b = s.find_first_not_of(" \t\n"), e = s.find_last_not_of(" \t\n");
        s = b == std::string::npos ? "" : s.substr(b, e - b + 1);
      }
    }
    Set(output, {JoinList(v)});
    return;
  } else {
    Skip("list", "list(" + op + ") is not evaluated");
    Set(var, CMakeValue::Unknown("list(" + op + ")"));
    return;
  }
  Set(var, {JoinList(v)});
}

void CMakeEvaluator::StringCommand(const std::vector<Arg>& a) {
  if (a.size() < 2) return;
  const std::string op = a[0].value.text;
  auto set_unknown = [&](const std::string& var, const CMakeValue& from) {
    Set(var, CMakeValue::Unknown(from.why));
  };
  if (op == "REPLACE" && a.size() >= 4) {
    const std::string& out = a[3].value.text;
    CMakeValue input = Concat(a, 4);
    if (!a[1].value.known || !a[2].value.known || !input.known)
      return set_unknown(out, !input.known ? input : a[1].value.known ? a[2].value : a[1].value);
    std::string s = input.text;
    const std::string& from = a[1].value.text;
    if (!from.empty())
      for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + a[2].value.text.size()))
        s.replace(at, from.size(), a[2].value.text);
    Set(out, {s});
    return;
  }
  if (op == "REGEX" && a.size() >= 5) {
    const std::string mode = a[1].value.text;
    const std::string& pattern = a[2].value.text;
    const size_t out_at = mode == "REPLACE" ? 4 : 3;
    if (a.size() <= out_at) return;
    const std::string& out = a[out_at].value.text;
    CMakeValue input = Concat(a, out_at + 1);
    if (!a[2].value.known || !input.known || (mode == "REPLACE" && !a[3].value.known))
      return set_unknown(out, !input.known ? input : a[2].value);
    if (input.text.size() > kMaxRegexInput)
      return Set(out, CMakeValue::Unknown("a string too long to match"));
    try {
      std::regex re(pattern, std::regex::extended);
      if (mode == "MATCH") {
        std::smatch m;
        Set(out, {std::regex_search(input.text, m, re) ? m.str(0) : ""});
      } else if (mode == "MATCHALL") {
        std::vector<std::string> all;
        for (auto it = std::sregex_iterator(input.text.begin(), input.text.end(), re);
             it != std::sregex_iterator(); ++it)
          all.push_back(it->str(0));
        Set(out, {JoinList(all)});
      } else if (mode == "REPLACE") {
        Set(out, {std::regex_replace(input.text, re, ReplacementFormat(a[3].value.text))});
      }
    } catch (const std::regex_error&) {
      Set(out, CMakeValue::Unknown("a regular expression rocm-audit cannot compile: " + pattern));
    }
    return;
  }
  if ((op == "TOLOWER" || op == "TOUPPER" || op == "MAKE_C_IDENTIFIER" || op == "GENEX_STRIP" ||
       op == "STRIP") &&
      a.size() >= 3) {
    const CMakeValue& in = a[1].value;
    const std::string& out = a[2].value.text;
    if (!in.known) return set_unknown(out, in);
    std::string s = in.text;
    if (op == "TOLOWER")
      s = ToLower(s);
    else if (op == "TOUPPER")
      s = ToUpper(s);
    else if (op == "MAKE_C_IDENTIFIER") {
      for (char& c : s)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      if (!s.empty() && std::isdigit(static_cast<unsigned char>(s[0]))) s = "_" + s;
    } else if (op == "STRIP") {
      size_t b = s.find_first_not_of(" \t\n\r"), e = s.find_last_not_of(" \t\n\r");
      s = b == std::string::npos ? "" : s.substr(b, e - b + 1);
    } else {
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
      s = stripped;
    }
    Set(out, {s});
    return;
  }
  if (op == "LENGTH" && a.size() >= 3) {
    if (!a[1].value.known) return set_unknown(a[2].value.text, a[1].value);
    Set(a[2].value.text, {std::to_string(a[1].value.text.size())});
    return;
  }
  if (op == "SUBSTRING" && a.size() >= 5) {
    if (!a[1].value.known) return set_unknown(a[4].value.text, a[1].value);
    size_t begin =
        std::min<size_t>(std::strtoull(a[2].value.text.c_str(), nullptr, 10), a[1].value.text.size());
    long long len = std::atoll(a[3].value.text.c_str());
    Set(a[4].value.text,
        {a[1].value.text.substr(begin, len < 0 ? std::string::npos : static_cast<size_t>(len))});
    return;
  }
  if (op == "FIND" && a.size() >= 4) {
    if (!a[1].value.known || !a[2].value.known)
      return set_unknown(a[3].value.text, !a[1].value.known ? a[1].value : a[2].value);
    bool reverse = a.size() > 4 && a[4].value.text == "REVERSE";
    size_t at = reverse ? a[1].value.text.rfind(a[2].value.text) : a[1].value.text.find(a[2].value.text);
    Set(a[3].value.text, {at == std::string::npos ? "-1" : std::to_string(at)});
    return;
  }
  if (op == "APPEND" || op == "PREPEND") {
    const std::string& var = a[1].value.text;
    const CMakeValue* cur = Get(var);
    CMakeValue add = Concat(a, 2);
    if ((cur && !cur->known) || !add.known)
      return Set(var, CMakeValue::Unknown(!add.known ? add.why : cur->why));
    std::string base = cur ? cur->text : "";
    Set(var, {op == "APPEND" ? base + add.text : add.text + base});
    return;
  }
  if (op == "CONCAT") {
    Set(a[1].value.text, Concat(a, 2));
    return;
  }
  if (op == "JOIN" && a.size() >= 3) {
    std::vector<std::string> parts;
    for (size_t k = 3; k < a.size(); ++k) {
      if (!a[k].value.known) return set_unknown(a[2].value.text, a[k].value);
      parts.push_back(a[k].value.text);
    }
    Set(a[2].value.text, {JoinList(parts, a[1].value.text)});
    return;
  }
  if (op == "REPEAT" && a.size() >= 4) {
    std::string s;
    for (long long k = 0, n = std::min(std::atoll(a[2].value.text.c_str()), 4096LL);
         k < n && s.size() <= limits_.max_value_bytes; ++k)
      s += a[1].value.text;
    Set(a[3].value.text, {s});
    return;
  }
  if (op == "COMPARE" && a.size() >= 5) {
    if (!a[2].value.known || !a[3].value.known)
      return set_unknown(a[4].value.text, !a[2].value.known ? a[2].value : a[3].value);
    int c = a[2].value.text.compare(a[3].value.text);
    const std::string& k = a[1].value.text;
    bool r = k == "EQUAL"        ? c == 0
             : k == "NOTEQUAL"   ? c != 0
             : k == "LESS"       ? c < 0
             : k == "GREATER"    ? c > 0
             : k == "LESS_EQUAL" ? c <= 0
                                 : c >= 0;
    Set(a[4].value.text, {r ? "1" : "0"});
    return;
  }
  // TIMESTAMP, RANDOM, UUID, HASH, JSON, ...: a value this evaluation cannot know.
  Skip("string", "string(" + op + ") is not evaluated");
}

void CMakeEvaluator::ParseArguments(const std::vector<Arg>& a) {
  // cmake_parse_arguments(<prefix> <options> <one> <multi> <args>...) or
  // cmake_parse_arguments(PARSE_ARGV <N> <prefix> <options> <one> <multi>).
  size_t base = 0;
  std::vector<Arg> rest;
  if (!a.empty() && a[0].value.text == "PARSE_ARGV" && a.size() >= 6) {
    base = 2;
    size_t from = std::strtoull(a[1].value.text.c_str(), nullptr, 10);
    const CMakeValue* argc = Get("ARGC");
    size_t n = argc ? std::strtoull(argc->text.c_str(), nullptr, 10) : 0;
    for (size_t k = from; k < n; ++k)
      if (const CMakeValue* v = Get("ARGV" + std::to_string(k))) rest.push_back({*v, true});
  } else if (a.size() >= 4) {
    rest.assign(a.begin() + 4, a.end());
  } else {
    return;
  }
  const std::string prefix = a[base].value.text;
  auto names = [&](size_t k) {
    return k < a.size() ? SplitList(a[k].value.text) : std::vector<std::string>{};
  };
  std::vector<std::string> options = names(base + 1), one = names(base + 2), multi = names(base + 3);
  std::map<std::string, std::vector<std::string>> values;
  std::vector<std::string> unparsed;
  std::string current;
  bool unknown = false;
  std::string why;
  for (const Arg& arg : rest) {
    if (!arg.value.known) unknown = true, why = arg.value.why;
    const std::string& t = arg.value.text;
    if (std::find(options.begin(), options.end(), t) != options.end()) {
      values[t] = {"TRUE"};
      current.clear();
    } else if (std::find(one.begin(), one.end(), t) != one.end() ||
               std::find(multi.begin(), multi.end(), t) != multi.end()) {
      current = t;
      values[t];
    } else if (!current.empty()) {
      values[current].push_back(t);
      if (std::find(one.begin(), one.end(), current) != one.end()) current.clear();
    } else {
      unparsed.push_back(t);
    }
  }
  auto value = [&](const std::vector<std::string>& v) {
    return unknown ? CMakeValue::Unknown(why) : CMakeValue{JoinList(v)};
  };
  for (const std::string& o : options)
    Set(prefix + "_" + o,
        unknown ? CMakeValue::Unknown(why) : CMakeValue{values.count(o) ? "TRUE" : "FALSE"});
  for (const auto& list : {one, multi})
    for (const std::string& k : list) {
      if (values.count(k))
        Set(prefix + "_" + k, value(values[k]));
      else
        Unset(prefix + "_" + k);
    }
  if (!unparsed.empty())
    Set(prefix + "_UNPARSED_ARGUMENTS", value(unparsed));
  else
    Unset(prefix + "_UNPARSED_ARGUMENTS");
}

}  // namespace rocm_audit
