#include "audit/model/rule.h"

namespace rocm_audit {

std::vector<std::string> FieldNames(std::string_view list) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < list.size()) {
    size_t end = list.find(' ', i);
    if (end == std::string_view::npos) end = list.size();
    if (end > i) out.emplace_back(list.substr(i, end - i));
    i = end + 1;
  }
  return out;
}

}  // namespace rocm_audit
