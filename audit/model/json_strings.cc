#include "audit/model/json_strings.h"

namespace rocm_audit {

nlohmann::ordered_json MapJsonStrings(const nlohmann::ordered_json& j, StringMap map) {
  using Json = nlohmann::ordered_json;
  if (j.is_string()) return map(j.get_ref<const std::string&>());
  if (j.is_object()) {
    Json out = Json::object();
    for (const auto& [name, value] : j.items()) out[map(name)] = MapJsonStrings(value, map);
    return out;
  }
  if (j.is_array()) {
    Json out = Json::array();
    for (const Json& value : j) out.push_back(MapJsonStrings(value, map));
    return out;
  }
  return j;
}

}  // namespace rocm_audit
