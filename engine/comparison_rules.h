// The rules of `rocm-audit diff OLD NEW`: what an update breaks that neither tree shows on its
// own. No check runs them during an audit; the comparison (diff/) makes their findings from
// the facts of two audited sides. Listed after the checks' rules (engine/known_rules.h) so that
// --list-checks, --explain, the policy and every renderer know them.
#pragma once

#include <span>

#include "audit/model/rule.h"

namespace rocm_audit {

extern const Rule kSymbolsRemovedRule;
extern const Rule kSonameChangedRule;
extern const Rule kLibraryRemovedRule;
extern const Rule kProcessorsLostRule;
extern const Rule kCMakeInterfaceRemovedRule;
extern const Rule kCMakeDependencyDroppedRule;
extern const Rule kNewFindingRule;
extern const Rule kFixedFindingRule;
extern const Rule kSideUnreadableRule;
extern const Rule kDebianSymbolsMissingRule;
extern const Rule kDebianSymbolsUnlistedRule;
extern const Rule kSonameBumpWithoutRenameRule;

/// The rules above, in the order --list-checks lists them (after the checks' rules).
std::span<const Rule* const> ComparisonRules();

}  // namespace rocm_audit
