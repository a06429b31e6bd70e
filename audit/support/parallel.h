// Runs fn(i) for i in [0, n) on `jobs` threads (work stealing by an atomic counter).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace rocm_audit {

/// An exception out of fn (std::bad_alloc where no one item caught it) stops the items not
/// started and is thrown again here once every thread has joined: out of a thread, it would
/// end the process (std::terminate) with no report and exit 134.
template <class Fn>
void ParallelFor(size_t n, unsigned jobs, Fn fn) {
  jobs = std::max(1u, std::min<unsigned>(jobs, static_cast<unsigned>(n)));
  std::atomic<size_t> next{0};
  std::exception_ptr first;
  std::mutex first_mutex;
  auto worker = [&] {
    try {
      for (size_t i; (i = next.fetch_add(1)) < n;) fn(i);
    } catch (...) {
      next = n;
      std::lock_guard lock(first_mutex);
      if (!first) first = std::current_exception();
    }
  };
  if (jobs <= 1) {
    worker();
  } else {
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < jobs; ++t) threads.emplace_back(worker);
    for (auto& t : threads) t.join();
  }
  if (first) std::rethrow_exception(first);
}

}  // namespace rocm_audit
