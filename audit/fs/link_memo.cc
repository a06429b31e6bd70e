#include "audit/fs/link_memo.h"

namespace rocm_audit {

const LinkOutcome* LinkMemo::Find(bool in_layers, std::string_view path) const {
  Shard& shard = ShardOf(path);
  std::lock_guard lock(shard.mutex);
  const auto& outcomes = shard.outcomes[in_layers];
  auto it = outcomes.find(path);
  return it == outcomes.end() ? nullptr : &it->second;
}

void LinkMemo::Keep(bool in_layers, std::string_view path, LinkOutcome outcome) {
  Shard& shard = ShardOf(path);
  std::lock_guard lock(shard.mutex);
  shard.outcomes[in_layers].try_emplace(std::string(path), std::move(outcome));
}

size_t LinkMemo::size() const {
  size_t n = 0;
  for (const Shard& shard : shards_) {
    std::lock_guard lock(shard.mutex);
    n += shard.outcomes[0].size() + shard.outcomes[1].size();
  }
  return n;
}

}  // namespace rocm_audit
