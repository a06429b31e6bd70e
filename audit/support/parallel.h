// Runs fn(i) for i in [0, n) on `jobs` threads (work stealing by an atomic counter).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace rocm_audit {

template <class Fn>
void ParallelFor(size_t n, unsigned jobs, Fn fn) {
  jobs = std::max(1u, std::min<unsigned>(jobs, static_cast<unsigned>(n)));
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next.fetch_add(1)) < n;) fn(i);
  };
  if (jobs <= 1) return worker();
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < jobs; ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
}

}  // namespace rocm_audit
