// Small text helpers every layer uses, in one home: a path's last component, a value without
// its surrounding blanks, a count with its noun. (Prefixes and suffixes are std::string_view's
// own starts_with and ends_with.)
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace rocm_audit {

/// The last component of a '/'-separated path, lexically: "/a/b.so" -> "b.so", "b" -> "b",
/// "/a/" -> "".
inline std::string_view BaseName(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

/// `text` without the blanks (space, tab, CR, LF) before and after it.
inline std::string_view Trim(std::string_view text) {
  constexpr std::string_view kBlanks = " \t\r\n";
  const size_t first = text.find_first_not_of(kBlanks);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(kBlanks) - first + 1);
}

/// "1 file", "0 files", "2 files": English plurals of the nouns reports count.
inline std::string Plural(size_t n, std::string_view noun) {
  return std::to_string(n) + " " + std::string(noun) + (n == 1 ? "" : "s");
}

}  // namespace rocm_audit
