// The evaluator's variables: a stack of scopes (function() and block() push one), the
// ${param} bindings of macro calls, which shadow variables without being variables, and the
// cache, which every scope reads where it binds no variable of the name (cmMakefile::
// GetDefinition): a config's function that exports with set(... CACHE INTERNAL "") (DART's
// dart_export_variable) leaves the value to its callers.
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
  /// set(<name> <value> CACHE <type> <doc> [FORCE]): the entry is set when absent or `force`
  /// (INTERNAL implies it), and the current scope's variable of the name goes either way
  /// (policy CMP0126 OLD, which configs asking for CMake < 3.21 get): the entry is what the
  /// scope reads from then on.
  void SetCache(const std::string& name, CMakeValue value, bool force);
  /// unset(<name> CACHE).
  void UnsetCache(const std::string& name) { cache_.Erase(name); }

  /// function() and block(): a new scope starting as a copy of the current one.
  void Push(Variables scope) { scopes_.push_back(std::move(scope)); }
  Variables Pop();
  const Variables& Current() const { return scopes_.back(); }
  const Variables& Top() const { return scopes_.front(); }
  /// Scopes open: 1 at the top (a function call opens one).
  size_t depth() const { return scopes_.size(); }
  /// The top scope, moved out, with the cache entries it binds no variable for: at the
  /// evaluation's end, what a consumer reads after it (kept frozen, CMakeVariables).
  Variables TakeTop();
  /// find_package(): the current scope adopts what the package's list files left
  /// (VariableMap::Adopt).
  void Adopt(const Variables& found, const CallerKeptVariables& keep) { scopes_.back().Adopt(found, keep); }

  /// What copying `scope` costs the work budget: its bytes and kEntryWork a variable.
  static size_t CopyCost(const Variables& scope) { return scope.CopyCost(); }
  /// What copying every scope and macro argument costs (an undecided if() forks them all).
  size_t CopyCost() const;

  /// Before the scopes are copied (VariableMap::Compact), where no value found is held.
  void Compact() {
    for (Variables& s : scopes_) s.Compact();
    cache_.Compact();
    for (Variables& s : macro_args_) s.Compact();
  }

  /// macro() arguments; a function() call pushes an empty set so that its caller's are hidden.
  void PushMacroArgs(Variables args) { macro_args_.push_back(std::move(args)); }
  void PopMacroArgs() { macro_args_.pop_back(); }

  /// After the branches of an undecided if(): a variable `other` leaves different from this
  /// is unknown, for `why`.
  void Merge(const VariableScopes& other, const std::string& why);

 private:
  static void MergeScope(Variables& mine, const Variables& theirs, const std::string& why);

  std::vector<Variables> scopes_;
  std::vector<Variables> macro_args_;  ///< ${param} of the innermost macro call, read first
  Variables cache_;                    ///< read where the current scope binds no variable
};

}  // namespace rocm_audit
