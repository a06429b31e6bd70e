#include "audit/fs/link_memo.h"

namespace rocm_audit {

const LinkOutcome* LinkMemo::Find(bool in_layers, std::string_view path) const {
  return outcomes_[in_layers].Find(path);
}

void LinkMemo::Keep(bool in_layers, std::string_view path, LinkOutcome outcome) {
  outcomes_[in_layers].Keep(std::string(path), std::move(outcome));
}

size_t LinkMemo::size() const { return outcomes_[0].size() + outcomes_[1].size(); }

}  // namespace rocm_audit
