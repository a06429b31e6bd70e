#include "audit/cmake/genex.h"

#include "audit/cmake/lists.h"

namespace rocm_audit {
namespace {

constexpr int kMaxDepth = 16;

// Evaluates from `at` (just past "$<") to the matching '>'; sets *ok false for an
// expression it cannot evaluate.
std::string Expression(std::string_view s, size_t* at, int depth, bool* ok,
                       const TargetPropertyLookup& lookup);

// Text up to `stop` (':' or '>' at this level), with nested expressions evaluated.
std::string Text(std::string_view s, size_t* at, std::string_view stops, int depth, bool* ok,
                 const TargetPropertyLookup& lookup) {
  std::string out;
  while (*at < s.size()) {
    if (s.substr(*at, 2) == "$<") {
      *at += 2;
      out += Expression(s, at, depth + 1, ok, lookup);
      continue;
    }
    if (stops.find(s[*at]) != std::string_view::npos) return out;
    out += s[(*at)++];
  }
  return out;
}

std::string Expression(std::string_view s, size_t* at, int depth, bool* ok,
                       const TargetPropertyLookup& lookup) {
  if (depth > kMaxDepth) {
    *ok = false;
    return {};
  }
  bool head_ok = true;
  std::string head = Text(s, at, ":>", depth, &head_ok, lookup);
  bool conditional = !head_ok;  // $<$<CONFIG:Debug>:x>: the head was a condition we cannot know
  std::string body;
  bool has_body = *at < s.size() && s[*at] == ':';
  if (has_body) {
    ++*at;
    body = Text(s, at, ">", depth, ok, lookup);
  }
  if (*at < s.size()) ++*at;  // '>'
  if (!has_body) {
    *ok = false;  // $<CONFIG>, $<INSTALL_PREFIX>, ...
    return {};
  }
  if (head == "INSTALL_INTERFACE" || head == "LINK_ONLY" || head == "1" || conditional) return body;
  if (head == "BUILD_INTERFACE" || head == "BUILD_LOCAL_INTERFACE" || head == "0") return {};
  // The consumer's platform is known: a Debian system's CMAKE_SYSTEM_NAME, which
  // $<PLATFORM_ID:a,b> matches against each entry exactly (cmGeneratorExpressionNode,
  // PlatformIdNode). mongoc 1.30's targets link $<$<PLATFORM_ID:Windows>:advapi32.lib>.
  // $<BOOL:x> is 0 for what cmValue::IsOff calls off (no number is read), 1 otherwise; x
  // not known leaves the item unevaluable (or, as a condition, taken as true).
  if (head == "BOOL") return IsOff(body) ? "0" : "1";
  // $<TARGET_EXISTS:t> is decided at generate time, by the consumer's targets. What it guards
  // is linked only where t exists, so it can never name a target that does not: taken as
  // false, the guarded items are not checked (cifpp links $<$<TARGET_EXISTS:std::atomic>:
  // std::atomic>, which no package defines, and CMake generates).
  if (head == "TARGET_EXISTS") return "0";
  // $<TARGET_PROPERTY:t,p> of a target the caller knows; the one-argument form (the
  // consuming target's property) is not known here.
  if (head == "TARGET_PROPERTY" && lookup) {
    const size_t comma = body.find(',');
    std::optional<std::string> value;
    if (comma != std::string::npos)
      value = lookup(std::string_view(body).substr(0, comma), std::string_view(body).substr(comma + 1));
    if (value) return *value;
    *ok = false;
    return {};
  }
  if (head == "PLATFORM_ID") {
    for (size_t from = 0;;) {
      const size_t comma = body.find(',', from);
      if (body.compare(from, comma - from, "Linux") == 0) return "1";
      if (comma == std::string::npos) return "0";
      from = comma + 1;
    }
  }
  if (head.find(':') == std::string::npos && !head.empty() && head.front() != '$' &&
      (head == "CONFIG" || head == "COMPILE_LANGUAGE" || head == "LINK_LANGUAGE" ||
       head == "CXX_COMPILER_ID" || head == "C_COMPILER_ID" || head == "HIP_COMPILER_ID" ||
       head == "COMPILE_LANG_AND_ID")) {
    return "1";  // a condition used as the head of an outer expression: taken as true
  }
  *ok = false;  // $<TARGET_FILE:t>, $<TARGET_PROPERTY:...>: not statically known
  return {};
}

// The items of a property value before its expressions are evaluated: a ';' inside "$<...>"
// belongs to the expression ($<1:a;b> is two items once evaluated, as CMake evaluates the
// whole value first and then splits it).
std::vector<std::string> TopLevelItems(std::string_view value) {
  std::vector<std::string> out;
  std::string item;
  int depth = 0, brackets = 0;
  for (size_t i = 0; i < value.size(); ++i) {
    if (value.substr(i, 2) == "$<") {
      ++depth;
      item += "$<";
      ++i;
      continue;
    }
    if (value[i] == '>' && depth > 0) --depth;
    if (value[i] == '[') ++brackets;  // as SplitList: a ';' inside [...] separates nothing
    if (value[i] == ']' && brackets > 0) --brackets;
    if (value[i] == ';' && depth == 0 && brackets == 0) {
      if (!item.empty()) out.push_back(std::move(item));
      item.clear();
      continue;
    }
    item += value[i];
  }
  if (!item.empty()) out.push_back(std::move(item));
  return out;
}

}  // namespace

std::vector<std::string> InstallInterfaceItems(std::string_view value, const TargetPropertyLookup& lookup) {
  std::vector<std::string> out;
  for (const std::string& item : TopLevelItems(value)) {
    if (item.find("$<") == std::string::npos) {
      for (std::string& part : SplitList(item)) out.push_back(std::move(part));
      continue;
    }
    bool ok = true;
    size_t at = 0;
    std::string text = Text(item, &at, "", 0, &ok, lookup);
    if (!ok) continue;
    for (std::string& part : SplitList(text)) out.push_back(std::move(part));
  }
  return out;
}

}  // namespace rocm_audit
