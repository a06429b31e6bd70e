#include "cli/progress_line.h"

#include <cstdio>

namespace rocm_audit {

void ProgressLine::Update(const char* phase, size_t done, size_t total) {
  auto now = std::chrono::steady_clock::now();
  std::lock_guard<std::mutex> lock(mutex_);
  if (now - start_ < std::chrono::milliseconds(300) || now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  shown_ = true;
  if (total == 0)
    std::fprintf(stderr, "\r\033[Krocm-audit: %s %zu entries", phase, done);
  else
    std::fprintf(stderr, "\r\033[Krocm-audit: %s %zu/%zu files", phase, done, total);
  std::fflush(stderr);
}

void ProgressLine::Clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (shown_) std::fprintf(stderr, "\r\033[K");
  shown_ = false;
}

}  // namespace rocm_audit
