// One element of a top-level array of the JSON report (findings[], files[]) as text: dumped
// and indented as dump() would indent it inside the whole document, so that arrays written
// an element at a time read exactly as one dump of the document.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace rocm_audit {

/// The dump of every JSON document rocm-audit writes (the report, SARIF, GitLab): two-space
/// indent; every string and member name as LosslessText (audit/model/byte_text.h), so that
/// names that are not UTF-8 stay distinct and byte-exact; characters a reader misreads
/// (EscapeMisreadInJson) as \uNNNN.
std::string DumpJson(const nlohmann::ordered_json& j);

/// Appends `dumped` (a dump()) to `out` with `indent` before each of its lines.
void AppendIndented(std::string_view dumped, std::string_view indent, std::string* out);

/// `element` as a member of the root's array: every line indented by four spaces, without
/// the separator that follows it.
std::string ArrayElementText(const nlohmann::ordered_json& element);

}  // namespace rocm_audit
