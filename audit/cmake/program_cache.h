// The list files of one run, each parsed once and shared, read-only, by every evaluation
// that runs it: a config, its Targets files and the files they include are run by each
// package that finds them and by each of its passes, and were parsed again each time. In a
// world that holds still for the run (InstalledFiles::HoldsStill, an audit's) a file kept is
// not read again: reading every file of every pass again (VTK's 33 passes each include its
// 20 files) was a third of the run's system calls. Elsewhere a file is read each time and its
// text is the key, so a file that changed is parsed again, never taken for what it held.
//
// Most files are run by one package's evaluation only (its Targets files, run once per pass):
// once that evaluation is over (ForgetUnshared) they are dropped, and only the files several
// evaluations run are kept for the run. Parsed programs were a third of the heap of /usr's
// 516 configs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "audit/cmake/program.h"

namespace rocm_audit {

class InstalledFiles;

/// What the programs kept may hold of text, all files together: past it a file is parsed
/// for the evaluation that asks and not kept (a tree of many large list files costs time,
/// never unbounded memory).
inline constexpr size_t kMaxCachedProgramBytes = size_t(64) << 20;

/// The parsed programs by path and text; thread-safe (evaluations run in parallel).
class ProgramCache {
 public:
  /// The program of `path` (null when it cannot be read, and then `why` says why, as
  /// InstalledFiles::Read does), read through `files` at most `cap` bytes; parsed unless
  /// the same text was parsed before, and not read again when kept of a still world.
  ProgramPtr Get(const std::string& path, size_t cap, const InstalledFiles& files, std::string* why);
  /// Ends one evaluation (an audited package and what it found): drops the programs only it
  /// ran that no one holds (a function defined there holds its file's). A dropped file that a
  /// later evaluation runs is parsed again, once: from then on it counts as shared.
  void ForgetUnshared();

 private:
  /// The program kept of `path` when `files` holds still, else null (read it).
  ProgramPtr KeptOfStillWorld(const std::string& path, size_t cap, const InstalledFiles& files,
                              std::string* why);

  // One text's program, parsed by the first evaluation that asks for it.
  struct Slot {
    std::once_flag once;
    ProgramPtr program;
  };
  struct Entry {
    uint64_t hash = 0;
    size_t size = 0;
    std::shared_ptr<Slot> slot;
    size_t evaluation = 0;  ///< the last evaluation (ForgetUnshared's count) that ran it
    bool shared = false;    ///< run by more than one evaluation: kept for the run
  };
  std::mutex mutex_;
  std::unordered_map<std::string, Entry> by_path_;
  std::unordered_set<std::string> forgotten_;  ///< paths dropped once
  /// The paths of the entries not shared (ForgetUnshared's candidates; a path may repeat):
  /// the shared ones, most of a long run's, are not visited again at each evaluation's end.
  std::vector<std::string> unshared_;
  size_t kept_bytes_ = 0;
  size_t evaluation_ = 0;
};

/// How many list files ParseProgram() parsed in this process: what the cost tests count.
size_t ProgramsParsed();

}  // namespace rocm_audit
