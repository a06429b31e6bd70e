// files[] of the JSON report: one object per audited file, from its typed facts. The only
// place that knows these field names; docs/design.md lists them.
#pragma once

#include <nlohmann/json.hpp>

#include "audit/model/file_facts.h"

namespace rocm_audit {

nlohmann::ordered_json FileFactsToJson(const FileFacts& facts);

}  // namespace rocm_audit
