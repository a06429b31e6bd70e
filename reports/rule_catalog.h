// What the rules are, for people and tools: --list-checks (a table, or every rule's whole
// record as JSON) and --explain ID (meaning, example, fix, and how to waive a finding).
#pragma once

#include <span>
#include <string>

#include "audit/model/rule.h"

namespace rocm_audit {

std::string RenderRuleTable(std::span<const Rule> rules);
/// {"schema_version": 1, "checks": [{id, severity, title, fix, key_fields, explanation, example}]}
std::string RenderRuleJson(std::span<const Rule> rules);
std::string RenderExplanation(const Rule& rule);

}  // namespace rocm_audit
