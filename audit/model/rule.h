// One class of defect: its stable ID, default severity, one-line title and generic remedy.
// The checks define one constant per rule; reports read them (SARIF rules[], legends);
// the policy reads the key fields.
// The ID is the JSON `check`, the SARIF ruleId and the suppression key: never rename one.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "audit/model/severity.h"

namespace rocm_audit {

struct Rule {
  std::string_view id;
  Severity severity;       ///< default severity (some checks downgrade per finding)
  std::string_view title;  ///< one line, for --list-checks and report legends
  std::string_view fix;    ///< the generic remedy, shown when a finding has no specific hint
  /// The fields (space-separated) that, with the ID and the file, tell one finding of this
  /// rule from another across runs and machines: the finding key of waivers and baselines.
  std::string_view key_fields = {};
  /// For --explain and the SARIF help: what the defect is and why it breaks users (a
  /// paragraph), and one example of the finding as the text report prints it.
  std::string_view explanation = {};
  std::string_view example = {};
  /// What makes findings of this rule one root cause for the text report's first screen:
  /// the fields (space-separated) whose values the findings share (unresolved-library:
  /// "library", one line however many files need it); "" groups by file, "*" the whole rule.
  std::string_view cause_fields = {};
  /// That line, with {field} (the shared value), {field*} (the distinct values, first three
  /// and a count), {field/} (the values' common directory), {n} (findings) and {files}; a
  /// [bracketed part] appears only when every field it names has a value.
  std::string_view cause = {};
  /// The finding's own fields, in the order every renderer emits them, each `name:type`
  /// (`name?:type` when it may be absent), in the language of field_spec.h:
  /// "library:string needed_by:[path] found_in?:[path]". Paths are shown as the report
  /// shows paths; the JSON Schema is tested against these declarations.
  std::string_view fields = {};
};

/// The names of a space-separated field list (Rule::key_fields, Rule::cause_fields).
std::vector<std::string> FieldNames(std::string_view list);

}  // namespace rocm_audit
