// What the evaluation records rather than runs, and where it is when it does: the list
// files and calls in progress, the conditions the current command depends on, and the
// references, dependencies, failures and skipped commands of the CMakeEvaluation.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "audit/cmake/evaluation.h"
#include "audit/cmake/installed_files.h"
#include "audit/cmake/list_file.h"

namespace rocm_audit {

class Recorder {
 public:
  explicit Recorder(const InstalledFiles& files) : files_(files) {}

  // Where the evaluation is.
  void PushFile(const SharedPath& path) {
    file_stack_.push_back(path);
    command_files_.push_back(path);
  }
  void PopFile() {
    file_stack_.pop_back();
    command_files_.pop_back();
  }
  size_t FileDepth() const { return file_stack_.size(); }
  const std::string& CurrentFile() const { return file_stack_.back().str(); }
  /// A call of a function or macro whose body is in `body_file`: the commands of the body are
  /// at lines of that file, wherever it is called from.
  void PushFrame(const std::string& name, const CMakeSite& call, const SharedPath& body_file) {
    frames_.push_back({name, call});
    command_files_.push_back(body_file);
  }
  void PopFrame() {
    frames_.pop_back();
    command_files_.pop_back();
  }
  size_t FrameDepth() const { return frames_.size(); }
  void SetCurrent(const ListFileCommand* cmd) { current_ = cmd; }
  const ListFileCommand* Current() const { return current_; }
  CMakeSite Site() const;      ///< the current command
  CMakeSite UserSite() const;  ///< the outermost call site inside the package's files

  // What the current command depends on.
  void PushUndecided(std::string why);
  void PopUndecided();
  size_t UndecidedMark() const { return undecided_.size(); }
  void ResetUndecided(size_t mark);
  /// The conditions, outermost first; past the first few, how many more there are.
  std::string Undecided() const;
  /// EXISTS tests that failed, per if() level: a failure right after one is about that file.
  void PushMissingTests(std::vector<std::string> paths) { missing_tests_.push_back(std::move(paths)); }
  void PopMissingTests() { missing_tests_.pop_back(); }
  /// foreach() items, innermost last: a reference named after one is that item's component.
  void PushLoopValue(const std::string& v) { loop_values_.push_back(v); }
  void PopLoopValue() { loop_values_.pop_back(); }

  // Records.
  /// Records a reference (one per path); returns the record kept, null for a relative path.
  CMakeReference* Reference(const std::string& path, const std::string& via, const std::string& target = {},
                            bool optional = false, bool checked_by_cmake = true);
  void Skip(const std::string& command, const std::string& reason);
  /// Records a failure; returns it, or null when it is the missing file an EXISTS test just
  /// looked for (recorded as that reference instead).
  CMakeFailure* Fail(const PathText& message);
  CMakeEvaluation& Out() { return out_; }

 private:
  struct Frame {  ///< a macro or function call in progress
    std::string name;
    CMakeSite call;
  };

  const InstalledFiles& files_;
  std::vector<Frame> frames_;
  std::vector<SharedPath> file_stack_;                   ///< list files being evaluated
  std::vector<SharedPath> command_files_;                ///< the file of each list file or body run
  std::vector<std::string> undecided_;                   ///< conditions the current command depends on
  size_t undecided_conditions_ = 0;                      ///< the entries of undecided_ that are not empty
  std::vector<std::vector<std::string>> missing_tests_;  ///< EXISTS tests that failed, per if() level
  std::vector<std::string> loop_values_;                 ///< current foreach() items, innermost last
  const ListFileCommand* current_ = nullptr;
  CMakeEvaluation out_;
  std::unordered_map<std::string, size_t> reference_index_;  ///< out_.references by path
};

}  // namespace rocm_audit
