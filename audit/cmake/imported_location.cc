#include "audit/cmake/imported_location.h"

#include <vector>

#include "audit/cmake/lists.h"

namespace rocm_audit {

const CMakeValue* MappedImportedLocation(const CMakeTarget& t, const std::string& config) {
  auto get = [&](const std::string& name) -> const CMakeValue* {
    auto it = t.properties.find(name);
    return it == t.properties.end() ? nullptr : &it->second;
  };
  const std::string upper = ToUpper(config);
  std::vector<std::string> suffixes;
  if (const CMakeValue* map = get("MAP_IMPORTED_CONFIG_" + upper)) {
    if (!map->known) return map;
    for (const std::string& c : SplitList(map->text)) suffixes.push_back(c.empty() ? "" : "_" + ToUpper(c));
  } else {
    suffixes = {"_" + upper, ""};
    if (const CMakeValue* available = get("IMPORTED_CONFIGURATIONS")) {
      if (!available->known) return available;
      for (const std::string& c : SplitList(available->text)) suffixes.push_back("_" + ToUpper(c));
    }
  }
  for (const std::string& suffix : suffixes)
    if (const CMakeValue* location = get("IMPORTED_LOCATION" + suffix)) return location;
  return nullptr;
}

}  // namespace rocm_audit
