// The order GPU targets are listed in, everywhere (device_targets, available, the matrix):
// by generation, as people write them (gfx803 < gfx906 < gfx90a < gfx1010 < gfx1100), a
// family's generic target after its members, then features.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rocm_audit {

/// On target ID text ("gfx90a:xnack+") or bare processors.
bool TargetIdLess(std::string_view a, std::string_view b);
/// Sorts and removes duplicates in that order.
void SortTargetIds(std::vector<std::string>* ids);

}  // namespace rocm_audit
