// set, unset, option, math, cmake_parse_arguments, separate_arguments: the commands that
// only compute variables. Each keeps CMake's result, or an unknown one when an input is
// unknown.
#include <algorithm>
#include <cstdio>
#include <map>

#include "audit/cmake/arg_values.h"
#include "audit/cmake/commands.h"
#include "audit/cmake/lists.h"
#include "audit/cmake/math_expression.h"

namespace rocm_audit {

Flow SetCommand(Interpreter& in, const std::string&, const Args& a) {
  if (a.empty() || !a[0].value.known) return Flow::kNormal;
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
    in.Unset(a[0].value.text, parent);
    return Flow::kNormal;
  }
  if (cache) {
    // set(<var> <value> CACHE <type> <doc> [FORCE]); the INTERNAL type implies FORCE.
    const bool force =
        a.back().value.text == "FORCE" || (end + 1 < a.size() && a[end + 1].value.text == "INTERNAL");
    in.SetCache(a[0].value.text, JoinArgs(a, 1, end), force);
    return Flow::kNormal;
  }
  in.Set(a[0].value.text, JoinArgs(a, 1, end), parent);
  return Flow::kNormal;
}

Flow UnsetCommand(Interpreter& in, const std::string&, const Args& a) {
  if (a.empty() || !a[0].value.known) return Flow::kNormal;
  if (a.size() > 1 && a[1].value.text == "CACHE")
    in.vars().UnsetCache(a[0].value.text);
  else
    in.Unset(a[0].value.text, a.size() > 1 && a[1].value.text == "PARENT_SCOPE");
  return Flow::kNormal;
}

Flow OptionCommand(Interpreter& in, const std::string&, const Args& a) {
  if (a.size() >= 1 && !in.Get(a[0].value.text))
    in.Set(a[0].value.text, {a.size() >= 3 ? a[2].value.text : "OFF"});
  return Flow::kNormal;
}

Flow MathCommand(Interpreter& in, const std::string&, const Args& a) {
  if (a.size() < 3 || a[0].value.text != "EXPR") return Flow::kNormal;
  if (!a[2].value.known) {
    in.Set(a[1].value.text, a[2].value);
    return Flow::kNormal;
  }
  auto v = EvaluateMathExpression(a[2].value.text);
  bool hex = a.size() >= 5 && a[4].value.text == "HEXADECIMAL";
  if (!v) {
    in.Set(a[1].value.text,
           CMakeValue::Unknown("math(EXPR \"" + a[2].value.text + "\"), which rocm-audit cannot evaluate"));
    return Flow::kNormal;
  }
  char buf[32];
  snprintf(buf, sizeof buf, hex ? "0x%llx" : "%lld", static_cast<long long>(*v));
  in.Set(a[1].value.text, {buf});
  return Flow::kNormal;
}

Flow SeparateArgumentsCommand(Interpreter& in, const std::string&, const Args& a) {
  if (a.empty()) return Flow::kNormal;
  const CMakeValue* v = a.size() >= 3 ? &a[2].value : in.Get(a[0].value.text);
  if (!v) return Flow::kNormal;
  if (!v->known) {
    in.Set(a[0].value.text, *v);
    return Flow::kNormal;
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
  in.Set(a[0].value.text, {JoinList(words)});
  return Flow::kNormal;
}

namespace {

// The arguments cmake_parse_arguments parses: its own trailing ones, or with PARSE_ARGV
// the function's ARGV<n> from <N> on. Sets *base to where <prefix> is; false: too few.
bool ArgumentsToParse(Interpreter& in, const Args& a, size_t* base, Args* rest) {
  if (!a.empty() && a[0].value.text == "PARSE_ARGV" && a.size() >= 6) {
    *base = 2;
    size_t from = std::strtoull(a[1].value.text.c_str(), nullptr, 10);
    const CMakeValue* argc = in.Get("ARGC");
    size_t n = argc ? std::strtoull(argc->text.c_str(), nullptr, 10) : 0;
    for (size_t k = from; k < n; ++k)
      if (const CMakeValue* v = in.Get("ARGV" + std::to_string(k))) rest->push_back({*v, true});
    return true;
  }
  if (a.size() >= 4) {
    // Each argument is a list, flattened, its empty items dropped (cmExpandList): libappimage's
    // cmake_parse_arguments(... "${ARGN}") parses the items of one quoted argument.
    for (size_t k = 4; k < a.size(); ++k) {
      if (!a[k].value.known) {
        rest->push_back(a[k]);
        continue;
      }
      std::vector<std::string> items = SplitList(a[k].value.text);
      in.Charge(items.size() * kEntryWork);  // as an unquoted argument's split is
      for (std::string& item : items)
        if (!item.empty()) rest->push_back({CMakeValue{std::move(item)}, a[k].quoted});
    }
    return true;
  }
  return false;
}

bool Contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace

// cmake_parse_arguments(<prefix> <options> <one> <multi> <args>...) or
// cmake_parse_arguments(PARSE_ARGV <N> <prefix> <options> <one> <multi>).
Flow ParseArgumentsCommand(Interpreter& in, const std::string&, const Args& a) {
  size_t base = 0;
  Args rest;
  if (!ArgumentsToParse(in, a, &base, &rest)) return Flow::kNormal;
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
    if (Contains(options, t)) {
      values[t] = {"TRUE"};
      current.clear();
    } else if (Contains(one, t) || Contains(multi, t)) {
      current = t;
      values[t];
    } else if (!current.empty()) {
      values[current].push_back(t);
      if (Contains(one, current)) current.clear();
    } else {
      unparsed.push_back(t);
    }
  }
  auto value = [&](const std::vector<std::string>& v) {
    return unknown ? CMakeValue::Unknown(why) : CMakeValue{JoinList(v)};
  };
  for (const std::string& o : options)
    in.Set(prefix + "_" + o,
           unknown ? CMakeValue::Unknown(why) : CMakeValue{values.count(o) ? "TRUE" : "FALSE"});
  for (const auto& list : {one, multi})
    for (const std::string& k : list) {
      if (values.count(k))
        in.Set(prefix + "_" + k, value(values[k]));
      else
        in.Unset(prefix + "_" + k);
    }
  if (!unparsed.empty())
    in.Set(prefix + "_UNPARSED_ARGUMENTS", value(unparsed));
  else
    in.Unset(prefix + "_UNPARSED_ARGUMENTS");
  return Flow::kNormal;
}

}  // namespace rocm_audit
