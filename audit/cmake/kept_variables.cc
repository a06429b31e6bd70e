#include "audit/cmake/kept_variables.h"

namespace rocm_audit {

CMakeVariables::CMakeVariables(const Map& all) {
  VariableMap scope;
  for (const auto& [name, value] : all) scope.Set(name, value);
  *this = CMakeVariables(std::move(scope));
}

CMakeVariables::CMakeVariables(VariableMap scope) {
  scope.Freeze();
  map_ = std::make_shared<const VariableMap>(std::move(scope));
}

}  // namespace rocm_audit
