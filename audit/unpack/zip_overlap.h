// Zip entries whose data overlap. A zip's central directory lists each entry with the offset
// of its local header; nothing in the format stops two entries from naming one local entry,
// or one entry's data from running into another's. libarchive's seekable reader keeps one
// entry per offset (slurp_central_directory inserts them in a tree keyed by the offset, and
// an insert of a key already there is dropped), so 20,000 entries sharing one local entry
// unpack as one file or none; UnZip 6.0 as patched for CVE-2019-13232 (the "cover" list of
// extract.c) refuses the archive: "invalid zip file with overlapped components (possible zip
// bomb)"; a reader that trusts the directory writes every entry, 20 GB from 1 MB. The package
// is refused unread and the finding names the entries.
#pragma once

#include <cstdint>
#include <string>

namespace rocm_audit {

/// "" when no two entries of the zip `file`'s central directory overlap (or it has none this
/// reader finds, or more than `max_entries` entries: the unpacker's cap decides then); else
/// which entries overlap, and how many do.
std::string ZipOverlaps(const std::string& file, uint64_t max_entries);

/// The same for the bytes of a zip in memory (the fuzz target's entry).
std::string ZipOverlapsIn(const std::string& bytes, uint64_t max_entries);

}  // namespace rocm_audit
