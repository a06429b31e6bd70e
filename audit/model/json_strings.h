// One walk over a JSON value's text: the report writes names as lossless text and the
// baseline reads them back as bytes (audit/model/byte_text.h), each a map over every string
// value and every member name, numbers, booleans and null left as they are.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace rocm_audit {

using StringMap = std::string (*)(std::string_view);

/// `j` with every string value and member name replaced by `map` of it.
nlohmann::ordered_json MapJsonStrings(const nlohmann::ordered_json& j, StringMap map);

}  // namespace rocm_audit
