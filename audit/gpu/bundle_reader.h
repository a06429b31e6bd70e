// Reads offload bundles from a byte range (a section, an archive member, a whole file) by
// their length fields only: a plain bundle ends where its table and furthest entry end,
// a CCOB v2/v3 where its header's total size says, a CCOB v1 where its compressed stream
// ends. Zero padding between bundles is skipped; nothing scans payloads for magic bytes.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "audit/gpu/bundle.h"

namespace rocm_audit {

/// Where a byte range came from, copied into each Bundle it yields.
struct BundleContainer {
  std::string section;
  std::string member;
  uint64_t file_offset = 0;  ///< where the byte range starts in the file
};

/// Reads the bundle (plain, CCOB, or a bare code object) starting at `offset` in `bytes`.
/// Returns its extent, or nullopt when the extent could not be established (the bundle
/// is still appended, with its problems).
std::optional<uint64_t> ReadBundleAt(std::string_view bytes, uint64_t offset, const BundleContainer& where,
                                     const BundleReadOptions& options, std::vector<Bundle>* out);

/// Reads consecutive bundles from the start of `bytes`. Bytes between bundles must be
/// zero; anything else stops the walk with a problem (resyncing would mean scanning).
void ReadBundleSequence(std::string_view bytes, const BundleContainer& where,
                        const BundleReadOptions& options, std::vector<Bundle>* out,
                        std::vector<BundleProblem>* problems);

/// Whether `bytes` starts with a bundle magic (plain or CCOB).
bool StartsWithBundleMagic(std::string_view bytes);

/// What the code object at one (offset, size) of a bundle was found to be, so that entries
/// sharing those bytes read them once: a table may point every entry at one code object.
struct CodeObjectMemo {
  struct Read {
    bool ok = false;
    CodeObjectInfo info;
    std::string error;
  };
  std::map<std::pair<uint64_t, uint64_t>, Read> by_extent;
};

/// Fills an entry's target and code object from `prefix`, the entry's first bytes (all
/// of them for an in-place bundle), appending problems to `bundle_problems`. With `memo`,
/// a code object already read at the entry's offset and size is not read again. `index`
/// is the entry's place in its bundle, which a problem of the entry names.
void InspectEntry(BundleEntry* entry, size_t index, std::string_view prefix,
                  std::vector<BundleProblem>* bundle_problems, CodeObjectMemo* memo = nullptr);

}  // namespace rocm_audit
