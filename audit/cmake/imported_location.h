// Which IMPORTED_LOCATION of an imported target a consumer built in one configuration gets:
// cmTarget::GetMappedConfig's order, in one place for get_target_property(LOCATION) in the
// evaluator and for cmake-no-location in the checks.
#pragma once

#include <string>

#include "audit/cmake/evaluation.h"

namespace rocm_audit {

/// The location a consumer built in `config` ("" for no build type) gets: the
/// MAP_IMPORTED_CONFIG_<CONFIG> configurations when that is set, else IMPORTED_LOCATION_<CONFIG>,
/// IMPORTED_LOCATION and the first of IMPORTED_CONFIGURATIONS that has one. Null when none
/// has; an unknown map or list is returned itself (whatever it names may be taken).
const CMakeValue* MappedImportedLocation(const CMakeTarget& t, const std::string& config);

}  // namespace rocm_audit
