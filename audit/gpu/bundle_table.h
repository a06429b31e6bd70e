// The entry table of an uncompressed clang offload bundle (docs/design.md §F1):
// "__CLANG_OFFLOAD_BUNDLE__", u64 count, then {u64 offset, u64 size, u64 id length, id}.
// Unlike LLVM's reader, which stops quietly at the first bad entry, every inconsistency
// is an error here.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "audit/gpu/bundle.h"

namespace rocm_audit {

inline constexpr std::string_view kBundleMagic = "__CLANG_OFFLOAD_BUNDLE__";

enum class TableStatus { kOk, kNeedMore, kError };

/// Parses the table from `prefix`, the first bytes of a bundle whose full size is
/// `bundle_size` (the bytes available, for an in-place bundle). kNeedMore: `prefix` ends
/// inside the table (the caller streams more in). Entries are in file order; each entry's
/// range is checked against `bundle_size`. `table_end` is where the table stops.
TableStatus ParseBundleTable(std::string_view prefix, uint64_t bundle_size, std::vector<BundleEntry>* entries,
                             uint64_t* table_end, std::string* error);

/// Where the bundle ends: the end of its table or of its furthest entry (what clr's
/// ComputeImageSize does).
uint64_t BundleExtent(const std::vector<BundleEntry>& entries, uint64_t table_end);

}  // namespace rocm_audit
