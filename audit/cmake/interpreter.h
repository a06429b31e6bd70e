// The interpreter behind CMakeEvaluator: it runs a Program's commands, owns the blocks
// (if, foreach, while, block, function, macro) and calls, and dispatches every other
// command through the command table (command_table.h). Its state lives in types of their
// own: VariableScopes, TargetTable, and the Recorder of what is never run.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "audit/cmake/caller_kept_variables.h"
#include "audit/cmake/command.h"
#include "audit/cmake/condition.h"
#include "audit/cmake/evaluator_limits.h"
#include "audit/cmake/expand.h"
#include "audit/cmake/installed_files.h"
#include "audit/cmake/program.h"
#include "audit/cmake/recorder.h"
#include "audit/cmake/target_table.h"
#include "audit/cmake/variable_scopes.h"

namespace rocm_audit {

class DependencyResolver;

class Interpreter {
 public:
  /// `commands`: the command table (command_table.h), which the facade hands in, as CMake
  /// registers its built-in commands with its state.
  Interpreter(const InstalledFiles& files, EvaluatorLimits limits, CommandLookup commands)
      : files_(files), limits_(limits), commands_(commands), rec_(files) {}

  // What the commands work on.
  const InstalledFiles& files() const { return files_; }
  const EvaluatorLimits& limits() const { return limits_; }
  VariableScopes& vars() { return vars_; }
  TargetTable& targets() { return targets_; }
  Recorder& rec() { return rec_; }

  // Variables, with the value bound.
  const CMakeValue* Get(std::string_view name) const {
    const CMakeValue* v = vars_.Get(name);
    if (v) Charge(v->text.size());
    return v;
  }
  void Set(const std::string& name, CMakeValue value, bool parent_scope = false);
  /// find_package() of a dependency evaluated apart: the current scope gets what its list
  /// files left (`found`), but what `keep` keeps (VariableMap::Adopt), charged as a copy of
  /// it; a consumer's target default it sets is recorded here, as Set() records it.
  void AdoptVariables(const CMakeVariables& found, const CallerKeptVariables& keep);
  /// set(... CACHE ...): VariableScopes::SetCache, the value bound as Set() binds it.
  void SetCache(const std::string& name, CMakeValue value, bool force);
  void Unset(const std::string& name, bool parent_scope = false) { vars_.Unset(name, parent_scope); }
  /// CMAKE_MATCH_<n> and CMAKE_MATCH_COUNT after a regular-expression search, as
  /// cmMakefile::ClearMatches then StoreMatches leave them: each earlier match variable
  /// emptied, then each non-empty group of `groups` (none: no match) stored. if(MATCHES) and
  /// string(REGEX MATCH) store their match; MATCHALL and REPLACE their last.
  void StoreMatches(const std::vector<std::string>& groups);
  /// The unknown result of a command never run here.
  CMakeValue UnknownResult(const std::string& command) const;
  void ValueTooLong();  ///< records that a value hit limits().max_value_bytes
  /// After a list file ran (included, or loaded by find_package()), CMAKE_CURRENT_LIST_DIR is
  /// the directory of CMAKE_CURRENT_LIST_FILE again, whatever the file or its caller set it to
  /// (cmMakefile::RunListFile: Rhonabwy's config unsets it, then includes
  /// CMakeFindDependencyMacro, and reads it back).
  void ListFileEnded();
  /// `value` charged to the work budget, unknown past limits().max_value_bytes.
  CMakeValue Bound(CMakeValue value);
  /// Work done (limits().max_work_bytes): values read by name, arguments expanded, values
  /// set, searches. The evaluation stops at the next command once it is over.
  void Charge(size_t bytes) const { work_ += bytes; }
  bool OverBudget() const { return work_ > limits_.max_work_bytes; }
  /// The next number of the sequence string(RANDOM) draws its characters from. It is the same
  /// every run, so reports are reproducible; CMake's is random, and configs only use it to tell
  /// calls apart (JUCE names a target after each).
  uint64_t NextRandom() {
    uint64_t z = (random_ += 0x9e3779b97f4a7c15ULL);  // splitmix64
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// Once over the budget: records that the evaluation stopped at `command`, and is true.
  bool StopsOverBudget(std::string_view command);

  // Records (see Recorder).
  CMakeReference* Reference(const std::string& path, const std::string& via, const std::string& target = {},
                            bool optional = false, bool checked_by_cmake = true) {
    return rec_.Reference(path, via, target, optional, checked_by_cmake);
  }
  void Skip(const std::string& command, const std::string& reason) { rec_.Skip(command, reason); }
  /// Skip() of list-file code left unrun (a limit, a loop or branch not taken as a whole):
  /// it may have included any module.
  void SkipCode(const std::string& command, const std::string& reason) {
    code_skipped_ = true;
    rec_.Skip(command, reason);
  }
  CMakeFailure* Fail(const PathText& message) { return rec_.Fail(message); }
  /// Records a command, or a form of one, that the evaluator does not evaluate.
  Flow NotEvaluated(const std::string& name) {
    Skip(name, "a command rocm-audit does not evaluate");
    return Flow::kNormal;
  }

  // What some commands keep between calls.
  /// The cmake_policy(PUSH) stack of cmake_policy(VERSION) values.
  std::vector<std::string>& policy_versions() { return policy_versions_; }
  /// Once a dependency is asked for, unknown targets may be its own.
  bool dependency_seen() const { return dependency_seen_; }
  /// A file the config writes (file(WRITE), configure_file, execute_process(OUTPUT_FILE)):
  /// in the consumer's tree it exists afterwards; it is never written here.
  void NoteConsumerFile(const std::string& path);
  /// EXISTS of a path: the world's answer, or in the consumer's tree, true for what the
  /// config wrote there and unknown for the rest (what the consumer's configure made).
  Tri PathExists(const std::string& path) const;
  void SetDependencySeen() { dependency_seen_ = true; }
  /// include(<Module>) of one of CMake's modules ran: the commands it defines exist from here
  /// on (find_dependency() needs CMakeFindDependencyMacro).
  void NoteModuleIncluded(std::string_view module);
  /// Something ran that may have included any module (a find_package() of a name not known).
  void NoteModulesUnknown() { modules_included_ = nullptr; }
  /// CMake's modules included so far, by the list files run here and by the dependencies
  /// found so far (CMakeDependency::modules_included, CMakeEvaluation::modules_included):
  /// null when any may have been (an include or a dependency not evaluated, code left unrun).
  std::shared_ptr<const std::vector<std::string>> ModulesIncluded();
  /// A find_package() of `name` ran ("": of a name not known here), `undecided` when in a
  /// branch the evaluation could not decide: what it defines is in the target table from
  /// here on (TargetExists).
  void NoteDependencyLoaded(const std::string& name, bool undecided);
  /// find_package() of `d` is about to load it: with a resolver, what it defines and leaves
  /// is asked for now, as CMake loads the dependency's config at this call. True when the
  /// resolver knows it is found nowhere (DependencyResolver::Answer::absent).
  struct Resolution {
    bool absent = false;
    std::shared_ptr<const std::vector<std::string>> machine_variables;  ///< as in Answer
    std::string commands_from;                                          ///< as in Answer
    std::vector<std::pair<std::string, CMakeValue>> caller_variables;   ///< as in Answer
    std::vector<std::string> caller_targets;                            ///< as in Answer
  };
  Resolution ResolveDependency(const CMakeDependency& d);
  /// include_guard(): whether the current file was guarded already; guards it.
  bool Guard();

  /// Evaluates a list file; `failure` says why it could not be read.
  Flow RunFile(const std::string& path, std::string* failure);
  /// The functions and macros defined so far, by lower-case name.
  const std::map<std::string, CMakeDefinition>& definitions() const { return definitions_; }
  /// The same, moved out at the end of the evaluation.
  std::map<std::string, CMakeDefinition> TakeDefinitions() { return std::move(definitions_); }
  /// Defines commands a dependency's list files defined: they are global in CMake.
  /// Every find_package() of a package imports its dependencies' commands again (Qt6's
  /// modules each bring Qt6's hundreds): one already defined as the same body is kept as it is.
  void ImportDefinitions(const std::map<std::string, CMakeDefinition>& defs);
  /// Calls a function() or macro() if one of that name is defined; false if none is.
  bool CallIfDefined(const std::string& name, const Args& args, Flow* flow);

  /// What if(TARGET) knows of targets not defined here (CMakeEvaluator sets it).
  struct ForeignTargets {
    std::set<std::string> own;  ///< the package's own, from an earlier evaluation
    /// The caller's, at the find_package() that evaluates this config in its scope
    /// (CMakeDependency::caller_targets): defined before anything here runs.
    std::set<std::string> caller;
    bool asked = false;  ///< an if(TARGET) was undecided because of a dependency
    /// What find_package() leaves a consumer of each dependency found (by lower-case name):
    /// the version its version file gives, the config ("" for a Find module), and the
    /// commands it defines.
    struct Package {
      std::string version, config;
      SharedDefinitions definitions;  ///< null for none
      /// What its list files left set: find_package() runs them in the caller's scope.
      CMakeVariables variables{};
      std::vector<std::string> world_answers{};  ///< what its evaluation asked the audited world
      /// find_package() gives the caller back its own PACKAGE_PREFIX_DIR after the config
      /// (CMake 3.30 and later): a dependency's configure_package_config_file() prefix does
      /// not replace the caller's.
      bool restores_prefix_dir = false;
    };
    std::map<std::string, Package> packages;
    /// A resolver answers find_package(): `packages` holds every one found so far.
    bool located = false;
    /// The targets each located dependency defines (by lower-case name; its own dependencies'
    /// too), and whether they are all known.
    struct Defined {
      TargetNames targets;
      bool known = false;
      /// Not known, but evaluated as far as it goes: a target of its namespace it did not
      /// reach is not defined (as cmake-missing-target judges it), so a generated Targets
      /// file's "referenced, but are missing" test of it is decided.
      bool evaluated = false;
      /// Neither: a Find module of CMake's whose targets are not listed (FindPython), which
      /// defines targets in its own namespaces only (FindModuleNamespaces).
      bool cmake_module = false;
    };
    std::map<std::string, Defined> by_dependency{};
    /// The dependencies whose find_package() ran so far, in a decided branch: once located,
    /// if(TARGET) reads only what these define, as CMake's target table holds nothing else
    /// at that point (KF5Codecs tests if(TARGET Qt6::Core) before it finds Qt6Core5Compat).
    std::set<std::string> loaded{};
    bool loaded_partly = false;  ///< one ran undecided, or defines targets not all known
    /// Some loaded so that what it defines is unknown and not evaluated in part either.
    bool loaded_unevaluated = false;
    /// The namespaces (lower case) of the loaded dependencies evaluated in part: their names
    /// and their targets' prefixes before "::".
    std::set<std::string> partly_namespaces{};
    bool loaded_partly_evaluated = false;  ///< one of `partly_namespaces` is loaded
    /// The namespaces (lower case) of the loaded Find modules of CMake whose targets are not
    /// known (Defined::cmake_module): a target of another one none of them defines.
    std::set<std::string> module_namespaces{};
    /// Answers each find_package() as it runs; null when the dependencies are given above.
    DependencyResolver* resolver = nullptr;
  };
  ForeignTargets& foreign_targets() { return foreign_targets_; }
  /// Whether the find_package() calls that ran so far define `name` (kUnknown: one of them
  /// is not known whole).
  Tri DependencyDefines(const std::string& name) const;
  /// Whether `name` is known to exist here: defined, the caller's, or a dependency's.
  bool HasTarget(std::string_view name) const;
  const ForeignTargets& foreign_targets() const { return foreign_targets_; }
  /// `name` is a target no dependency can define: the command that alone defines it decided
  /// not to (pkg_check_modules(IMPORTED_TARGET) of a module the world lacks), so
  /// if(TARGET name) is false however incomplete the dependencies' targets are.
  void MarkTargetAbsent(const std::string& name) { absent_targets_.insert(name); }

 private:
  using Definition = CMakeDefinition;
  struct State {  ///< what an undecided if() forks and merges
    VariableScopes vars;
    TargetTable targets;
  };
  struct Branch {  ///< a branch of an if() that may run
    size_t begin, end;
    std::string reason;  ///< why it is undecided, "" when it runs on every path
    std::vector<std::string> missing;
  };

  // The blocks (interpreter_blocks.cc): Exec runs a range of commands with the blocks in it
  // on a stack of its own, never recursing per block. Each block opens (true when its body is
  // to run) and, each time its body ends with a Flow, says whether the body runs again.
  struct Running;    ///< a block in progress
  struct Forked;     ///< an undecided if()'s branches and what they leave
  struct Iterating;  ///< a foreach()'s items
  Flow Exec(const ProgramPtr& p, size_t begin, size_t end);
  static bool Body(Running& r, size_t begin, size_t end, Flow* flow);
  bool Open(const ProgramPtr& p, Running& r, Flow* flow);
  bool Next(const ProgramPtr& p, Running& r, Flow* flow);
  bool OpenIf(const ProgramPtr& p, Running& r, Flow* flow);
  std::vector<Branch> Branches(const ProgramPtr& p, size_t at, bool* taken, std::string* unknown_so_far);
  bool StartBranch(Running& r, Flow* flow);
  bool NextBranch(Running& r, Flow* flow);
  Flow MergeBranches(Forked& f);
  bool OpenForeach(const ProgramPtr& p, Running& r, Flow* flow);
  /// The items a foreach() iterates over; `failed` on CMake's fatal errors of RANGE.
  std::vector<std::string> ForeachItems(const Args& args, std::string* unknown, bool* failed);
  bool NextItem(const ProgramPtr& p, Running& r, Flow* flow);
  bool NextIteration(const ProgramPtr& p, Running& r, Flow* flow);
  bool TestWhile(const ProgramPtr& p, Running& r, Flow* flow);
  bool OpenBlock(const ProgramPtr& p, Running& r, Flow* flow);
  void CloseBlock(Running& r);
  void Define(const ProgramPtr& p, size_t at);
  Flow Call(const Definition& def, const Args& args, const CMakeSite& site, const std::string& name);
  Flow Command(const ListFileCommand& cmd);
  bool UnknownToCMake(const std::string& name);
  /// An include() or cmake_language() was not evaluated: it may have defined any command.
  bool SkippedWhatMayDefineCommands();
  /// One of CMake's module commands (IsModuleCommand) is called where no module that defines
  /// it may have been included.
  bool ModuleCommandMissing(const std::string& name);
  /// Whether a command of CMake's modules (lower case) exists here: unknown for any other
  /// command, in CMake's own modules, or when any module may have been included.
  Tri ModuleCommandDefined(const std::string& name);
  ConditionResult Condition(const Args& args);
  /// The condition of an if(), elseif() or while() command, its arguments expanded.
  ConditionResult Test(const ListFileCommand& cmd);
  void NoteUnsetInCondition(std::string_view name);
  /// An if(TARGET) found `name` absent where the caller's scope may have it.
  void NoteAbsentTarget(std::string_view name);
  Tri TargetExists(std::string_view name);
  Args Expand(const ListFileCommand& cmd);
  CMakeValue ExpandOne(const ListFileArgument& arg);

  const InstalledFiles& files_;
  EvaluatorLimits limits_;
  mutable size_t work_ = 0;  // Charge(): reading a value is work too
  uint64_t random_ = 0;      // NextRandom()
  CommandLookup commands_;
  VariableScopes vars_;
  TargetTable targets_;
  Recorder rec_;
  std::map<std::string, Definition> definitions_;
  std::set<std::string> guarded_;               ///< include_guard()ed files
  std::map<std::string, ProgramPtr> programs_;  ///< parsed list files by path
  mutable CMakeValue env_value_;                ///< what $ENV{x} expands to (unknown)
  size_t commands_run_ = 0;
  bool dependency_seen_ = false;
  bool code_skipped_ = false;  ///< SkipCode() ran
  bool in_condition_ = false;  ///< expanding a condition's arguments (NoteUnsetInCondition)
  /// The modules include()d so far, here and by the dependencies found (null: unknown);
  /// shared with the find_package() calls that recorded it.
  std::shared_ptr<const std::vector<std::string>> modules_included_ =
      std::make_shared<std::vector<std::string>>();
  std::vector<std::string> policy_versions_{""};
  ForeignTargets foreign_targets_;
  std::set<std::string> absent_targets_;
  std::set<std::string> consumer_files_;  ///< written in the consumer's tree (NoteConsumerFile)
};

/// Answers find_package() while a config is evaluated, as CMake loads the dependency's own
/// config at the call: where it is found, what its evaluation leaves the caller, and the
/// targets it and its dependencies define (DependencyLocator evaluates each once a run).
class DependencyResolver {
 public:
  struct Answer {
    /// false for an optional dependency not found: it defines nothing and no one misses it
    bool counts = false;
    /// Found nowhere the consumer's find_package() looks, on an installed system whose every
    /// prefix is known: CMake sets <Name>_FOUND to 0 (an optional one's absence is decided).
    bool absent = false;
    Interpreter::ForeignTargets::Defined defined;
    /// What find_package() leaves when it loads a config or a shipped Find module.
    std::optional<Interpreter::ForeignTargets::Package> package;
    /// What CMake's own Find module, not evaluated, may set (VariablesItMaySet): its
    /// answers are the consumer's machine's. Null for none.
    std::shared_ptr<const std::vector<std::string>> machine_variables;
    std::string commands_from;  ///< CMakeDependency::commands_from of the call
    std::vector<std::pair<std::string, CMakeValue>> caller_variables;  ///< and its caller_variables
    std::vector<std::string> caller_targets;                           ///< and its caller_targets
    /// CMake's modules the dependency's list files included, its own dependencies' too:
    /// their commands exist for the caller from the call on. Null when unknown (not found
    /// here but perhaps on the consumer's machine, not evaluated).
    std::shared_ptr<const std::vector<std::string>> modules_included;
    /// The targets its evaluation found absent that the caller may have in turn (null for
    /// none): where the caller lacks them too, so do those who call it apart.
    const std::set<std::string>* absent_targets_tested = nullptr;
  };
  /// The caller's scope at the call: its variables, and whether a target exists there.
  struct CallerScope {
    VariableLookup variable;
    std::function<bool(std::string_view)> has_target;
  };
  virtual ~DependencyResolver() = default;
  /// `commands`: those the caller's list files have defined at the call.
  virtual Answer Resolve(const CMakeDependency& d, const std::map<std::string, CMakeDefinition>& commands,
                         const CallerScope& caller) = 0;
};

}  // namespace rocm_audit
