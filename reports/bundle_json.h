// files[].bundles[] of the JSON report (and the data the text summary and --arch-matrix
// render): one object per bundle, one per entry, the code object's header under each.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "audit/bundle.h"

namespace rocm_audit {

nlohmann::ordered_json BundlesToJson(const std::vector<Bundle>& bundles);

}  // namespace rocm_audit
