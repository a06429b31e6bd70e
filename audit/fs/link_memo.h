// What resolving each symbolic link of a RootedFs came to, once per run: a link's outcome
// is the outcome of its target's text, taken from the link's directory, which depends on
// nothing the resolution that met it carries (the kernel resolves a link's target to one
// place and goes on from there). A directory of N links, each naming the next, is resolved
// in O(N) links followed, not one chain of up to N per link. The files do not change while
// the audit runs; a link read from the host's /proc or /sys (or whose resolution reads one)
// is never kept, since what it names is the reading process's own state. A directory is kept
// too, as an outcome of no links (RootedFs's PathFollower): the directories above a tree are
// looked at once per run, not once per path that passes through them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "audit/fs/shared_answers.h"

namespace rocm_audit {

/// Where the resolution of one link ends, without the kernel's 40-link limit.
struct LinkOutcome {
  enum class Kind : uint8_t {
    kEnds,       ///< at `where`, after `links` links
    kFails,      ///< on a component that is missing or too long (`why`), after `links` links
    kNeverEnds,  ///< the link is needed to resolve itself: a cycle, or a link naming itself below it
  } kind = Kind::kEnds;
  /// Links followed, the link itself included, saturated at kCountedLinks: past the kernel's
  /// limit the count says no more.
  uint8_t links = 0;
  uint32_t holder = 0;   ///< kEnds: the layer that held the last component
  std::string where;     ///< kEnds: the path of the installed system ("" is "/")
  std::string_view why;  ///< kFails: one of RootedFs's reasons (static storage)
};

/// Linux's limit on the symbolic links one path resolution follows (MAXSYMLINKS).
inline constexpr int kMaxSymlinks = 40;
/// The most links a LinkOutcome counts: one past the kernel's limit.
inline constexpr uint64_t kCountedLinks = kMaxSymlinks + 1;

/// Outcomes by the link's path in the installed system (a host path when resolving
/// outside the layers). Thread-safe; an outcome once kept is never replaced, so a pointer
/// to it stays valid for the memo's life.
class LinkMemo {
 public:
  const LinkOutcome* Find(bool in_layers, std::string_view path) const;
  void Keep(bool in_layers, std::string_view path, LinkOutcome outcome);
  /// Outcomes kept, for tests.
  size_t size() const;

 private:
  SharedAnswers<LinkOutcome> outcomes_[2];  ///< by in_layers
};

}  // namespace rocm_audit
