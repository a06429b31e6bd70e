// The static evaluator: runs a package's list files the way find_package() would load
// them, without running anything. Commands with effects outside the evaluation
// (execute_process, try_compile, file(WRITE), ...) are recorded and their results are
// unknown; an if() on an unknown value runs every branch it may take and merges what they
// set, and what is found only on such a branch is marked undecided. Recursion, loops and
// the number of commands are bounded.
//
// This is the facade; the Interpreter (interpreter.h) runs the blocks and dispatches every
// other command through the command table (command_table.h).
#pragma once

#include <map>
#include <set>
#include <string>

#include "audit/cmake/evaluation.h"
#include "audit/cmake/evaluator_limits.h"
#include "audit/cmake/installed_files.h"
#include "audit/cmake/interpreter.h"

namespace rocm_audit {

class CMakeEvaluator {
 public:
  CMakeEvaluator(const InstalledFiles& files, EvaluatorLimits limits = {});

  /// Sets a variable before the evaluation (find_package's <Name>_FIND_* and the like).
  void Define(const std::string& name, std::string value) { in_.Set(name, {std::move(value)}); }
  void DefineValue(const std::string& name, CMakeValue value) { in_.Set(name, std::move(value)); }
  /// A variable the consumer sets and the evaluation cannot know (its compiler, ...).
  void DefineUnknown(const std::string& name, std::string why) {
    in_.Set(name, CMakeValue::Unknown(std::move(why)));
  }
  /// Targets the package defines itself (from an earlier evaluation): a fresh consumer
  /// has none of them before the package defines them, whatever its dependencies define.
  void SetOwnTargets(std::set<std::string> names) { in_.foreign_targets().own = std::move(names); }
  /// Targets the caller has at the find_package() that loads the config.
  void SetCallerTargets(std::set<std::string> names) { in_.foreign_targets().caller = std::move(names); }
  /// Functions and macros the caller defined before the file runs (CMake's commands are global).
  void ImportCommands(const std::map<std::string, CMakeDefinition>& commands) {
    in_.ImportDefinitions(commands);
  }
  /// Each find_package() is answered by `resolver` as it runs: the dependencies are
  /// located, so if(TARGET) reads what the calls so far loaded.
  void SetResolver(DependencyResolver* resolver) {
    in_.foreign_targets().resolver = resolver;
    in_.foreign_targets().located = resolver != nullptr;
  }
  /// Whether an if(TARGET) was undecided because of a dependency.
  bool asked_dependency_targets() const { return in_.foreign_targets().asked; }
  /// Evaluates one list file as find_package() loads a config or version file.
  void Run(const std::string& path);
  /// The result; call once, after Run().
  CMakeEvaluation Take();

 private:
  Interpreter in_;
};

/// How many list files CMakeEvaluator::Run() evaluated in this process (configs and version
/// files; each an entry point, the files it includes not counted): what the cost tests count.
size_t ListFilesEvaluated();

}  // namespace rocm_audit
