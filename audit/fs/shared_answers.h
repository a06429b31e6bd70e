// A run-wide map of answers by a string key, shared by every worker: the loader's search
// memo and the symbolic links' outcomes keep theirs in it.
#pragma once

#include <array>
#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace rocm_audit {

/// Answers kept by a string key, for every worker of a run. Thread-safe. An answer, once
/// kept, is never replaced, so a reference to it stays valid for the map's life.
template <typename T>
class SharedAnswers {
 public:
  /// The answer kept under `key`, else null.
  const T* Find(std::string_view key) const {
    Shard& shard = ShardOf(key);
    std::lock_guard lock(shard.mutex);
    auto it = shard.answers.find(key);
    return it == shard.answers.end() ? nullptr : &it->second;
  }
  /// Keeps `answer` under `key` unless another worker kept one first; returns the one kept.
  const T& Keep(std::string key, T answer) {
    Shard& shard = ShardOf(key);
    std::lock_guard lock(shard.mutex);
    return shard.answers.try_emplace(std::move(key), std::move(answer)).first->second;
  }
  /// Answers kept, for tests.
  size_t size() const {
    size_t n = 0;
    for (const Shard& shard : shards_) {
      std::lock_guard lock(shard.mutex);
      n += shard.answers.size();
    }
    return n;
  }

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  // One lock per shard, chosen by the key's hash, keeps two workers from waiting on each
  // other for different keys.
  struct Shard {
    mutable std::mutex mutex;
    std::unordered_map<std::string, T, Hash, std::equal_to<>> answers;
  };
  static constexpr size_t kShards = 64;
  Shard& ShardOf(std::string_view key) const { return shards_[Hash{}(key) % kShards]; }

  mutable std::array<Shard, kShards> shards_;
};

}  // namespace rocm_audit
