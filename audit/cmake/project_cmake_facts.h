// The report's view of an evaluated package (audit/model/cmake_facts.h).
#pragma once

#include "audit/cmake/package_config.h"
#include "audit/model/cmake_facts.h"

namespace rocm_audit {

CMakePackageFacts ProjectCMakeFacts(const CMakePackage& package);

}  // namespace rocm_audit
