// One status line on a terminal, as ninja draws it: silent for short runs, at most ten
// updates a second, one writer at a time, erased before the report is written.
#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>

namespace rocm_audit {

class ProgressLine {
 public:
  /// `total` 0: not known yet (the walk is still counting).
  void Update(const char* phase, size_t done, size_t total);
  void Clear();

 private:
  std::mutex mutex_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_;
  bool shown_ = false;
};

}  // namespace rocm_audit
