// The evaluator's variables: a stack of scopes (function() and block() push one), and the
// ${param} bindings of macro calls, which shadow variables without being variables.
// Copyable, because an undecided if() runs each branch on a copy and merges the copies; each
// scope a VariableMap, whose copies cost what changed since they were made.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "audit/cmake/value.h"
#include "audit/cmake/variable_map.h"

namespace rocm_audit {

class VariableScopes {
 public:
  using Variables = VariableMap;

  VariableScopes() { scopes_.emplace_back(); }

  /// The variable in the current scope, or null when unset.
  const CMakeValue* Get(std::string_view name) const;
  /// What ${name} expands to: a macro argument first, then the variable.
  const CMakeValue* Lookup(std::string_view name) const;
  /// PARENT_SCOPE at the top scope does nothing, as in CMake.
  void Set(const std::string& name, CMakeValue value, bool parent_scope = false);
  void Unset(const std::string& name, bool parent_scope = false);

  /// function() and block(): a new scope starting as a copy of the current one.
  void Push(Variables scope) { scopes_.push_back(std::move(scope)); }
  Variables Pop();
  const Variables& Current() const { return scopes_.back(); }
  const Variables& Top() const { return scopes_.front(); }
  /// The top scope's variables, moved out (VariableMap::TakeAll): at the evaluation's end.
  std::map<std::string, CMakeValue> TakeTop() { return scopes_.front().TakeAll(); }

  /// What copying `scope` costs the work budget: its bytes and kEntryWork a variable.
  static size_t CopyCost(const Variables& scope) { return scope.CopyCost(); }
  /// What copying every scope and macro argument costs (an undecided if() forks them all).
  size_t CopyCost() const;

  /// Before the scopes are copied (VariableMap::Compact), where no value found is held.
  void Compact() {
    for (Variables& s : scopes_) s.Compact();
    for (Variables& s : macro_args_) s.Compact();
  }

  /// macro() arguments; a function() call pushes an empty set so that its caller's are hidden.
  void PushMacroArgs(Variables args) { macro_args_.push_back(std::move(args)); }
  void PopMacroArgs() { macro_args_.pop_back(); }

  /// After the branches of an undecided if(): a variable `other` leaves different from this
  /// is unknown, for `why`.
  void Merge(const VariableScopes& other, const std::string& why);

 private:
  std::vector<Variables> scopes_;
  std::vector<Variables> macro_args_;  ///< ${param} of the innermost macro call, read first
};

}  // namespace rocm_audit
