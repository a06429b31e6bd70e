#include "audit/cmake/genex.h"

#include <algorithm>
#include <iterator>

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

std::vector<TargetReference> TargetsNamedByItems(std::string_view value) {
  // cmGeneratorExpressionNode.cxx: the nodes that look their target up and report an error
  // when it is not there.
  static constexpr std::string_view kHeads[] = {
      "TARGET_PROPERTY",    "TARGET_OBJECTS",          "TARGET_FILE",
      "TARGET_FILE_NAME",   "TARGET_FILE_DIR",         "TARGET_FILE_BASE_NAME",
      "TARGET_LINKER_FILE", "TARGET_LINKER_FILE_NAME", "TARGET_LINKER_FILE_DIR",
      "TARGET_SONAME_FILE", "TARGET_SONAME_FILE_NAME", "TARGET_SONAME_FILE_DIR"};
  // Evaluated whatever the consumer: the content of an expression that passes it on as it is
  // (CMake evaluates $<BUILD_INTERFACE:$<TARGET_FILE_DIR:t>> and fails without t). One in a
  // condition is evaluated only where the condition holds, which is not known here.
  static constexpr std::string_view kPassOn[] = {
      "$<BUILD_INTERFACE:", "$<BUILD_LOCAL_INTERFACE:", "$<INSTALL_INTERFACE:", "$<LINK_ONLY:", "$<1:"};
  auto at_top = [&](size_t at) {
    const size_t item = value.rfind(';', at);
    const size_t start = item == std::string_view::npos ? 0 : item + 1;
    std::string_view before = value.substr(start, at - start);
    for (bool more = true; more && !before.empty();) {
      more = false;
      for (std::string_view w : kPassOn)
        if (before.starts_with(w)) before.remove_prefix(w.size()), more = true;
    }
    return before.empty();
  };
  std::vector<TargetReference> out;
  for (size_t at = value.find("$<"); at != std::string_view::npos; at = value.find("$<", at + 2)) {
    if (!at_top(at)) continue;
    const size_t begin = value.find(':', at);
    if (begin == std::string_view::npos) break;
    const std::string_view head = value.substr(at + 2, begin - at - 2);
    if (std::find(std::begin(kHeads), std::end(kHeads), head) == std::end(kHeads)) continue;
    // The target's name, literal: one built from a nested expression is not known here.
    const size_t end = value.find_first_of(",>$;", begin + 1);
    if (end == std::string_view::npos || value[end] == '$' || value[end] == ';' || end == begin + 1) continue;
    if (head == "TARGET_PROPERTY" && value[end] != ',') continue;  // the consumer's own property
    out.push_back({std::string(value.substr(begin + 1, end - begin - 1)), std::string(head)});
  }
  return out;
}

}  // namespace rocm_audit
