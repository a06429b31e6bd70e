// The numbers of a finding's message, apart from its words: how FindingSink tells findings
// alike but for an index ("entry 17 has ...", "entry 18 has ...") from different ones.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "audit/support/path_text.h"

namespace rocm_audit {

struct MessageNumbers {
  /// The message with each number replaced by a NUL (no message holds one: names are C
  /// strings).
  std::string shape;
  std::vector<uint64_t> numbers;  ///< in the order they appear
};

/// A number is a run of decimal digits that stands alone: not part of a word, a hex value
/// (0x2000), a version or a name (gfx90a, libc.so.6, 1.5), and at most 19 digits. The paths
/// the message names (`paths`) are words whole: findings of two files are never alike.
MessageNumbers SplitNumbers(std::string_view message, std::span<const TextPath> paths = {});

}  // namespace rocm_audit
