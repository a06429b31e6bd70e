#include "audit/cmake/lists.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace rocm_audit {

std::vector<std::string> SplitList(std::string_view list, bool keep_empty) {
  std::vector<std::string> out;
  std::string item;
  int brackets = 0;
  // Plain characters are appended a run at a time, each item moved out: one character at a
  // time and a copy of each item, it was 8% of evaluating Debian's configs.
  size_t run = 0;  // where the characters not yet in `item` start
  auto flush = [&](size_t end) { item.append(list.data() + run, end - run); };
  for (size_t i = 0; i < list.size(); ++i) {
    const char c = list[i];
    if (c == '\\' && i + 1 < list.size() && list[i + 1] == ';') {
      flush(i);
      item += ';';
      run = ++i + 1;
    } else if (c == '[') {
      ++brackets;
    } else if (c == ']' && brackets > 0) {
      --brackets;
    } else if (c == ';' && brackets == 0) {
      flush(i);
      if (keep_empty || !item.empty()) out.push_back(std::move(item));
      item.clear();
      run = i + 1;
    }
  }
  flush(list.size());
  if (keep_empty ? !list.empty() : !item.empty()) out.push_back(std::move(item));
  return out;
}

std::string JoinList(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += separator;
    out += items[i];
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> FoundVersionVariables(const std::string& prefix,
                                                                       std::string_view version) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!version.empty()) out.emplace_back(prefix, std::string(version));
  unsigned parts[4] = {0, 0, 0, 0};
  size_t count = 0, at = 0;
  // sscanf's %u: digits (a leading sign and space aside, which versions do not have), then
  // the literal '.' before the next one.
  while (count < 4 && at < version.size() && std::isdigit(static_cast<unsigned char>(version[at]))) {
    unsigned long long v = 0;
    while (at < version.size() && std::isdigit(static_cast<unsigned char>(version[at])))
      v = std::min<unsigned long long>(v * 10 + static_cast<unsigned>(version[at++] - '0'), ~0u);
    parts[count++] = static_cast<unsigned>(v);
    if (at >= version.size() || version[at] != '.') break;
    ++at;
  }
  const char* names[] = {"_MAJOR", "_MINOR", "_PATCH", "_TWEAK"};
  for (size_t i = 0; i < 4; ++i) out.emplace_back(prefix + names[i], std::to_string(parts[i]));
  out.emplace_back(prefix + "_COUNT", std::to_string(count));
  return out;
}

std::string ToUpper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string ToLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

namespace {

char LowerAscii(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace

// Compared a character at a time: find_package()'s search asks it of every entry of
// lib/<arch>/ (thousands) for each name searched there.
bool StartsWithNoCase(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), s.begin(), [](char x, char y) {
           return LowerAscii(x) == LowerAscii(y);
         });
}

bool ContainsNoCase(std::string_view s, std::string_view word) {
  return std::search(s.begin(), s.end(), word.begin(), word.end(),
                     [](char x, char y) { return LowerAscii(x) == LowerAscii(y); }) != s.end();
}

bool LessNoCase(std::string_view a, std::string_view b) {
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(),
                                      [](char x, char y) { return LowerAscii(x) < LowerAscii(y); });
}

bool IsTrueConstant(std::string_view s) {
  std::string u = ToUpper(s);
  if (u == "1" || u == "ON" || u == "YES" || u == "TRUE" || u == "Y") return true;
  if (s.empty()) return false;
  char* end = nullptr;
  std::string copy(s);
  double v = std::strtod(copy.c_str(), &end);
  return end && *end == 0 && v != 0;
}

bool IsOff(std::string_view s) {
  const std::string u = ToUpper(s);
  return u.empty() || u == "0" || u == "OFF" || u == "NO" || u == "FALSE" || u == "N" || u == "IGNORE" ||
         u == "NOTFOUND" || u.ends_with("-NOTFOUND");
}

bool IsFalseConstant(std::string_view s) {
  if (IsOff(s)) return true;
  char* end = nullptr;
  std::string copy(s);
  double v = std::strtod(copy.c_str(), &end);
  return end && *end == 0 && v == 0;
}

}  // namespace rocm_audit
