#include "audit/inspect/inspect_files.h"

#include <algorithm>
#include <atomic>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>

namespace rocm_audit {
namespace {

// Two of hipBLASLt's large zstd windows do not fit the budget at once, and the walk lists
// its files together: a worker that waited for the other's window sat idle for a quarter
// of the run. Instead, a file whose window is not free is put off, and the worker reads
// other files. A file put off is tried again once its window would be given, and what is
// still put off when every file has been tried is read by waiting.
class Reader {
 public:
  Reader(const WalkedFiles& walked, ObjectStore& store, const BundleReadOptions& options,
         DecodeMemory& memory, const FileRead& done)
      : walked_(walked),
        store_(store),
        options_(options),
        memory_(memory),
        done_(done),
        files_(walked.size()) {}

  void Work() {
    for (;;) {
      if (std::optional<size_t> i = Due()) {
        Try(*i);
        continue;
      }
      size_t i = next_.fetch_add(1);
      if (i >= walked_.size()) break;
      Try(i);
    }
    // Every file was tried once: what is left can only wait for its window.
    for (;;) {
      std::optional<size_t> i;
      {
        std::lock_guard lock(mutex_);
        if (put_off_.empty()) return;
        i = put_off_.front().first;
        put_off_.pop_front();
      }
      Read(*i);
    }
  }

  std::vector<Boxed<InspectedFile>> Take() { return std::move(files_); }

 private:
  void Read(size_t i) { Keep(i, InspectFile(walked_[i], store_, options_)); }

  void Try(size_t i) {
    DecodeMemory::DeferInsteadOfWaiting defer;
    InspectedFile file = InspectFile(walked_[i], store_, options_);
    if (defer.deferred()) {
      std::lock_guard lock(mutex_);
      put_off_.push_back({i, defer.wanted()});
      return;
    }
    Keep(i, std::move(file));
  }

  void Keep(size_t i, InspectedFile file) {
    if (done_ && !done_(i, file)) return;
    files_[i] = std::move(file);
  }

  // The first file put off whose window would be given now.
  std::optional<size_t> Due() {
    std::lock_guard lock(mutex_);
    for (auto it = put_off_.begin(); it != put_off_.end(); ++it)
      if (memory_.WouldGive(it->second)) {
        size_t i = it->first;
        put_off_.erase(it);
        return i;
      }
    return std::nullopt;
  }

  const WalkedFiles& walked_;
  ObjectStore& store_;
  const BundleReadOptions& options_;
  DecodeMemory& memory_;
  const FileRead& done_;
  std::vector<Boxed<InspectedFile>> files_;
  std::atomic<size_t> next_{0};
  std::mutex mutex_;
  std::deque<std::pair<size_t, size_t>> put_off_;  // (file, the window it waits for)
};

}  // namespace

std::vector<Boxed<InspectedFile>> InspectFiles(WalkedFiles walked, ObjectStore& store,
                                               const BundleReadOptions& options, DecodeMemory& memory,
                                               unsigned jobs, const FileRead& done) {
  Reader reader(walked, store, options, memory, done);
  jobs = std::max(1u, std::min<unsigned>(jobs, static_cast<unsigned>(walked.size())));
  std::vector<std::thread> workers;
  for (unsigned t = 1; t < jobs; ++t) workers.emplace_back([&] { reader.Work(); });
  reader.Work();
  for (std::thread& t : workers) t.join();
  return reader.Take();
}

}  // namespace rocm_audit
