// The report's view of an evaluated package (audit/model/cmake_facts.h).
#pragma once

#include "audit/cmake/package_config.h"
#include "audit/model/cmake_facts.h"

namespace rocm_audit {

/// `with_result_variables`: list CMakePackageFacts::result_variables and each dependency's
/// CMakeDependencyFacts::targets (what `diff` compares).
CMakePackageFacts ProjectCMakeFacts(const CMakePackage& package, bool with_result_variables = false);

}  // namespace rocm_audit
