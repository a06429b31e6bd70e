#include "audit/fs/soname.h"

namespace rocm_audit {

bool SonameParts::NumericVersion() const {
  if (version.empty()) return false;
  for (char c : version)
    if (!((c >= '0' && c <= '9') || c == '.')) return false;
  return true;
}

std::optional<SonameParts> ParseSoname(std::string_view name) {
  for (size_t so = name.find(".so"); so != std::string_view::npos; so = name.find(".so", so + 1)) {
    const size_t end = so + 3;
    if (end < name.size() && name[end] != '.') continue;  // ".sox", ".sock": not the suffix
    if (so == 0) return std::nullopt;
    SonameParts parts;
    parts.family = name.substr(0, so);
    parts.stem = name.substr(0, end);
    parts.version = end < name.size() ? name.substr(end + 1) : std::string_view();
    return parts;
  }
  return std::nullopt;
}

}  // namespace rocm_audit
