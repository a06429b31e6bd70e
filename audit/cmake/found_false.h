// find_package() looks at <Name>_FOUND after the config or Find module ran: one left known
// and false means not found (cmFindPackageCommand), whatever else it set.
#pragma once

#include <string>

#include "audit/cmake/kept_variables.h"
#include "audit/cmake/lists.h"

namespace rocm_audit {

/// The evaluation's variables leave <name>_FOUND known and false.
inline bool LeavesFoundFalse(const CMakeVariables& variables, const std::string& name) {
  const CMakeValue* found = variables.Find(name + "_FOUND");
  return found && found->known && IsFalseConstant(found->text);
}

}  // namespace rocm_audit
