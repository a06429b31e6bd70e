// The static evaluator: runs a package's list files the way find_package() would load
// them, without running anything. Commands with effects outside the evaluation
// (execute_process, try_compile, file(WRITE), ...) are recorded and their results are
// unknown; an if() on an unknown value runs every branch it may take and merges what they
// set, and what is found only on such a branch is marked undecided. Recursion, loops and
// the number of commands are bounded.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "audit/cmake/condition.h"
#include "audit/cmake/evaluation.h"
#include "audit/cmake/installed_files.h"
#include "audit/cmake/list_file.h"

namespace rocm_audit {

struct EvaluatorLimits {
  size_t max_commands = 200000;   ///< commands run, over the whole evaluation
  int max_depth = 32;             ///< nested includes and calls
  size_t max_iterations = 10000;  ///< per loop
  size_t max_file_bytes = 4 << 20;
  size_t max_value_bytes = 4 << 20;  ///< a variable's value, and all of one command's arguments
};

class CMakeEvaluator {
 public:
  CMakeEvaluator(const InstalledFiles& files, EvaluatorLimits limits = {});

  /// Sets a variable before the evaluation (find_package's <Name>_FIND_* and the like).
  void Define(const std::string& name, std::string value);
  /// A variable the consumer sets and the evaluation cannot know (its compiler, ...).
  void DefineUnknown(const std::string& name, std::string why);
  /// Targets the package defines itself (from an earlier evaluation): a fresh consumer
  /// has none of them before the package defines them, whatever its dependencies define.
  void SetOwnTargets(std::set<std::string> names) { own_targets_ = std::move(names); }
  /// Targets the package's dependencies define, found by evaluating them in the same run:
  /// once the package has asked for a dependency, if(TARGET) on them is true. `complete`:
  /// every dependency was evaluated, so a target none of them defines is decided absent.
  void SetDependencyTargets(std::set<std::string> names, bool complete) {
    dependency_targets_ = std::move(names);
    dependency_targets_complete_ = complete;
  }
  /// Whether an if(TARGET) was undecided because of a dependency.
  bool asked_dependency_targets() const { return asked_dependency_targets_; }
  /// Evaluates one list file as find_package() loads a config or version file.
  void Run(const std::string& path);
  /// The result; call once, after Run().
  CMakeEvaluation Take();

  struct Program;  ///< a parsed list file with its blocks matched (evaluator.cc)

 private:
  enum class Flow { kNormal, kBreak, kContinue, kReturn, kStop };
  struct Definition {
    bool macro = false;
    std::vector<std::string> params;
    std::shared_ptr<const Program> program;
    size_t begin = 0, end = 0;  ///< the body: commands [begin, end) of the program
  };
  using Variables = std::unordered_map<std::string, CMakeValue>;
  struct State {  ///< what an undecided if() forks and merges
    std::vector<Variables> scopes;
    std::vector<CMakeTarget> targets;
  };
  struct Frame {  ///< a macro or function call in progress
    std::string name;
    CMakeSite call;
  };
  /// Expanded arguments, with how each was written (if() needs it).
  struct Arg {
    CMakeValue value;
    bool quoted = false;
  };

  // Control flow (evaluator.cc).
  Flow RunFile(const std::string& path, std::string* failure);
  Flow Exec(const std::shared_ptr<const Program>& p, size_t begin, size_t end);
  Flow ExecIf(const std::shared_ptr<const Program>& p, size_t at);
  Flow ExecForeach(const std::shared_ptr<const Program>& p, size_t at);
  Flow ExecWhile(const std::shared_ptr<const Program>& p, size_t at);
  Flow ExecBlock(const std::shared_ptr<const Program>& p, size_t at);
  Flow Call(const Definition& def, const std::vector<Arg>& args, const CMakeSite& site,
            const std::string& name);
  Flow Command(const ListFileCommand& cmd);
  ConditionResult Condition(const std::vector<Arg>& args);
  std::vector<Arg> Expand(const ListFileCommand& cmd);
  CMakeValue ExpandOne(const ListFileArgument& arg);

  // Variables (evaluator.cc).
  const CMakeValue* Get(std::string_view name) const;
  void Set(const std::string& name, CMakeValue value, bool parent_scope = false);
  void Unset(const std::string& name, bool parent_scope = false);
  CMakeValue UnknownResult(const std::string& command) const;
  void ValueTooLong();  ///< records that a value hit limits_.max_value_bytes

  // Commands (commands_*.cc). Each returns false when the arguments are not what it takes.
  bool Data(const std::string& name, const std::vector<Arg>& a);  ///< set, unset, list, string, math, ...
  bool Paths(const std::string& name,
             const std::vector<Arg>& a);  ///< get_filename_component, cmake_path, file
  bool Targets(const std::string& name, const std::vector<Arg>& a);  ///< add_library, properties, target_*
  bool Recorded(const std::string& name,
                const std::vector<Arg>& a);  ///< find_*, execute_process, message, ...
  Flow Include(const std::vector<Arg>& a);
  void ListCommand(const std::vector<Arg>& a);
  void StringCommand(const std::vector<Arg>& a);
  void FileCommand(const std::vector<Arg>& a);
  void CMakePathCommand(const std::vector<Arg>& a);
  void ParseArguments(const std::vector<Arg>& a);
  void SetProperty(CMakeTarget& t, const std::string& name, const CMakeValue& value, bool append);

  // Records (evaluator.cc).
  CMakeSite Site() const;      ///< the current command
  CMakeSite UserSite() const;  ///< the outermost call site inside the package's files
  std::string Undecided() const;
  /// Records a reference (one per path); returns the record kept, null for a relative path.
  CMakeReference* Reference(const std::string& path, const std::string& via, const std::string& target = {},
                            bool optional = false, bool checked_by_cmake = true);
  void Skip(const std::string& command, const std::string& reason);
  void Fail(const std::string& message);
  CMakeTarget* FindTarget(const std::string& name);

  const InstalledFiles& files_;
  EvaluatorLimits limits_;
  State state_;
  std::vector<Variables> macro_args_;  ///< ${param} of the innermost macro call, read first
  std::map<std::string, Definition> definitions_;
  std::vector<Frame> frames_;
  std::vector<std::string> file_stack_;                  ///< list files being evaluated
  std::vector<std::string> undecided_;                   ///< conditions the current command depends on
  std::vector<std::vector<std::string>> missing_tests_;  ///< EXISTS tests that failed, per if() level
  std::set<std::string> guarded_;                        ///< include_guard()ed files
  std::vector<std::string> loop_values_;                 ///< current foreach() items, innermost last
  std::map<std::string, std::shared_ptr<const Program>> programs_;  ///< parsed list files by path
  mutable CMakeValue env_value_;                                    ///< what $ENV{x} expands to (unknown)
  const ListFileCommand* current_ = nullptr;
  size_t commands_run_ = 0;
  bool stop_requested_ = false;  ///< message(FATAL_ERROR): the configure stops here
  bool dependency_seen_ = false;
  bool asked_dependency_targets_ = false;
  std::set<std::string> own_targets_;  ///< targets not defined here may come from a dependency
  std::set<std::string> dependency_targets_;
  bool dependency_targets_complete_ = false;
  std::vector<std::string> policy_versions_{""};  ///< cmake_policy(PUSH) stack of cmake_policy(VERSION)
  CMakeEvaluation out_;
};

}  // namespace rocm_audit
