#include "audit/loader/search_memo.h"

#include <utility>

namespace rocm_audit {

const ProbedCandidate* SearchMemo::FindCandidate(std::string_view key) const {
  Shard& shard = ShardOf(key);
  std::lock_guard lock(shard.mutex);
  auto it = shard.candidates.find(key);
  return it == shard.candidates.end() ? nullptr : &it->second;
}

const ProbedCandidate& SearchMemo::KeepCandidate(std::string key, ProbedCandidate probed) {
  Shard& shard = ShardOf(key);
  std::lock_guard lock(shard.mutex);
  return shard.candidates.try_emplace(std::move(key), std::move(probed)).first->second;
}

const ProbedDirectory* SearchMemo::FindDirectory(std::string_view dir) const {
  Shard& shard = ShardOf(dir);
  std::lock_guard lock(shard.mutex);
  auto it = shard.directories.find(dir);
  return it == shard.directories.end() ? nullptr : &it->second;
}

const ProbedDirectory& SearchMemo::KeepDirectory(std::string dir, ProbedDirectory probed) {
  Shard& shard = ShardOf(dir);
  std::lock_guard lock(shard.mutex);
  return shard.directories.try_emplace(std::move(dir), std::move(probed)).first->second;
}

}  // namespace rocm_audit
