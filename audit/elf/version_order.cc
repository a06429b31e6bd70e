#include "audit/elf/version_order.h"

#include <cctype>

namespace rocm_audit {

std::optional<VersionName> ParseVersionName(std::string_view name) {
  // The numeric tail: digits and dots after the last character that is neither.
  size_t start = name.size();
  while (start > 0 && (std::isdigit(static_cast<unsigned char>(name[start - 1])) || name[start - 1] == '.'))
    --start;
  std::string_view tail = name.substr(start);
  if (tail.empty() || !std::isdigit(static_cast<unsigned char>(tail.front())) ||
      !std::isdigit(static_cast<unsigned char>(tail.back())))
    return std::nullopt;
  VersionName out{name.substr(0, start), {}};
  unsigned value = 0;
  for (char c : tail) {
    if (c == '.') {
      out.parts.push_back(value);
      value = 0;
    } else {
      value = value * 10 + static_cast<unsigned>(c - '0');
    }
  }
  out.parts.push_back(value);
  return out;
}

std::string NewestOfFamily(const std::vector<std::string_view>& defined, std::string_view wanted) {
  std::optional<VersionName> want = ParseVersionName(wanted);
  if (!want) return "";
  std::string best;
  std::vector<unsigned> best_parts;
  for (std::string_view name : defined) {
    std::optional<VersionName> v = ParseVersionName(name);
    if (!v || v->family != want->family) continue;
    if (best.empty() || best_parts < v->parts) {  // lexicographic over the numbers
      best = name;
      best_parts = v->parts;
    }
  }
  return best;
}

}  // namespace rocm_audit
