#include "audit/model/target_order.h"

#include <algorithm>
#include <cctype>

namespace rocm_audit {

namespace {

// The generation a processor belongs to: gfx803 -> 8, gfx90a -> 9, gfx1030 -> 10,
// gfx9-4-generic -> 9, gfx10-3-generic -> 10. Anything else sorts last.
unsigned Family(std::string_view processor) {
  if (!processor.starts_with("gfx")) return ~0u;
  std::string_view rest = processor.substr(3);
  size_t end = 0;
  while (end < rest.size() && std::isalnum(static_cast<unsigned char>(rest[end]))) ++end;
  std::string_view number = rest.substr(0, end);
  if (processor.ends_with("-generic"))
    number = rest.substr(0, rest.find('-'));
  else
    number = number.substr(0, number.size() <= 3 ? 1 : number.size() - 2);
  unsigned family = 0;
  for (char c : number) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return ~0u;
    family = family * 10 + static_cast<unsigned>(c - '0');
  }
  return family;
}

}  // namespace

bool TargetIdLess(std::string_view a, std::string_view b) {
  std::string_view pa = a.substr(0, a.find(':')), pb = b.substr(0, b.find(':'));
  if (pa == pb) return a < b;
  unsigned fa = Family(pa), fb = Family(pb);
  if (fa != fb) return fa < fb;
  bool ga = pa.ends_with("-generic"), gb = pb.ends_with("-generic");
  if (ga != gb) return gb;  // a family's members before its generic target
  return pa < pb;
}

void SortTargetIds(std::vector<std::string>* ids) {
  std::sort(ids->begin(), ids->end(),
            [](const std::string& a, const std::string& b) { return TargetIdLess(a, b); });
  ids->erase(std::unique(ids->begin(), ids->end()), ids->end());
}

}  // namespace rocm_audit
