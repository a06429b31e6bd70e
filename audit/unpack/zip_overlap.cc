#include "audit/unpack/zip_overlap.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <functional>
#include <vector>

#include "audit/fs/open_file.h"

namespace rocm_audit {
namespace {

// The formats' sizes and signatures: APPNOTE.TXT 4.3.7 (local header), 4.3.12 (central
// directory header), 4.3.14-4.3.16 (the zip64 end records and the end of central directory).
constexpr uint64_t kLocalHeader = 30;
constexpr uint64_t kDirHeader = 46;
constexpr uint64_t kEnd = 22;
constexpr uint64_t kZip64Locator = 20;
constexpr uint64_t kZip64End = 56;
constexpr uint64_t kMaxComment = 0xffff;
// The most of a central directory read: 200,000 entries (the default --max-members) with
// names of 300 bytes.
constexpr uint64_t kMaxDirectory = uint64_t(64) << 20;

// Reads `size` bytes at `offset` of the zip (fewer at its end).
using ReadAt = std::function<std::string(uint64_t offset, size_t size)>;

uint64_t Le(const std::string& s, size_t at, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = v << 8 | static_cast<unsigned char>(s[at + size_t(i)]);
  return v;
}

// Where the central directory is (offset, size, entries), from the end records; false when
// there is none.
struct Directory {
  uint64_t offset = 0, size = 0, entries = 0;
  uint64_t correction = 0;  // bytes prepended to the zip (a self-extracting stub)
};

bool FindDirectory(const ReadAt& read, uint64_t file_size, Directory* d) {
  if (file_size < kEnd) return false;
  const uint64_t tail_at = file_size - std::min(file_size, kEnd + kMaxComment);
  const std::string tail = read(tail_at, size_t(file_size - tail_at));
  size_t end = tail.rfind(std::string("PK\x05\x06", 4));
  if (end == std::string::npos || end + kEnd > tail.size()) return false;
  d->entries = Le(tail, end + 10, 2);
  d->size = Le(tail, end + 12, 4);
  d->offset = Le(tail, end + 16, 4);
  uint64_t end_at = tail_at + end;
  // A zip64 end record, when its locator precedes the end record, holds the true values (and
  // sits between the directory and the end record, which the correction below must not count).
  if (end_at >= kZip64Locator) {
    const std::string locator = read(end_at - kZip64Locator, kZip64Locator);
    if (locator.size() == kZip64Locator && locator.starts_with(std::string("PK\x06\x07", 4))) {
      const uint64_t at = Le(locator, 8, 8);
      const std::string end64 = read(at, kZip64End);
      if (end64.size() < kZip64End || !end64.starts_with(std::string("PK\x06\x06", 4))) return false;
      d->entries = Le(end64, 32, 8);
      d->size = Le(end64, 40, 8);
      d->offset = Le(end64, 48, 8);
      end_at = at;
    }
  }
  // As libarchive's slurp_central_directory: offsets are off by what precedes the zip.
  if (d->offset > end_at || d->size > end_at - d->offset) return false;
  d->correction = end_at - d->offset - d->size;
  return true;
}

// One entry: where its local header is and the least its local entry spans (a header with
// no name, then its compressed data), and where its name is in the directory.
struct Entry {
  uint64_t start = 0, end = 0;
  size_t name_at = 0, name_size = 0;
};

// The zip64 extended information (APPNOTE 4.5.3) of a directory header: the 8-byte fields
// present for each of the sizes and offset that are 0xffffffff, in that order.
void ReadZip64Extra(const std::string& dir, size_t at, size_t size, uint64_t* compressed, uint64_t* offset,
                    bool uncompressed_max) {
  for (size_t p = at; p + 4 <= at + size;) {
    const uint64_t id = Le(dir, p, 2), len = Le(dir, p + 2, 2);
    if (p + 4 + len > at + size) return;
    if (id == 1) {
      size_t f = p + 4, fields_end = p + 4 + len;
      if (uncompressed_max) f += 8;
      if (*compressed == 0xffffffff && f + 8 <= fields_end) *compressed = Le(dir, f, 8), f += 8;
      if (*offset == 0xffffffff && f + 8 <= fields_end) *offset = Le(dir, f, 8);
      return;
    }
    p += 4 + len;
  }
}

std::vector<Entry> ReadEntries(const std::string& dir, const Directory& d, uint64_t max_entries) {
  std::vector<Entry> out;
  size_t at = 0;
  while (out.size() < d.entries && out.size() <= max_entries && at + kDirHeader <= dir.size() &&
         dir.compare(at, 4, "PK\x01\x02", 4) == 0) {
    const size_t name = Le(dir, at + 28, 2), extra = Le(dir, at + 30, 2), comment = Le(dir, at + 32, 2);
    if (at + kDirHeader + name + extra + comment > dir.size()) break;
    uint64_t compressed = Le(dir, at + 20, 4), offset = Le(dir, at + 42, 4);
    ReadZip64Extra(dir, at + kDirHeader + name, extra, &compressed, &offset,
                   Le(dir, at + 24, 4) == 0xffffffff);
    Entry e;
    e.start = offset + d.correction;
    e.end = e.start + kLocalHeader + compressed;
    if (e.end < e.start) e.end = UINT64_MAX;
    e.name_at = at + kDirHeader;
    e.name_size = std::min<size_t>(name, 256);
    out.push_back(e);
    at += kDirHeader + name + extra + comment;
  }
  return out;
}

std::string Overlaps(const ReadAt& read, uint64_t file_size, uint64_t max_entries) {
  Directory d;
  if (!FindDirectory(read, file_size, &d) || d.entries > max_entries) return "";
  const std::string dir = read(d.offset + d.correction, size_t(std::min(d.size, kMaxDirectory)));
  std::vector<Entry> entries = ReadEntries(dir, d, max_entries);
  std::stable_sort(entries.begin(), entries.end(),
                   [](const Entry& a, const Entry& b) { return a.start < b.start; });
  // Each local entry must end before the next begins: sorted by their starts, an entry that
  // starts before the furthest end so far overlaps the entry that reaches it.
  size_t overlapping = 0, first = 0, reaching = 0, furthest = 0;
  for (size_t i = 1; i < entries.size(); ++i) {
    if (entries[i - 1].end > entries[furthest].end) furthest = i - 1;
    if (entries[i].start >= entries[furthest].end) continue;
    if (overlapping++ == 0) first = i, reaching = furthest;
  }
  if (overlapping == 0) return "";
  const Entry &a = entries[reaching], &b = entries[first];
  auto name = [&](const Entry& e) { return "'" + dir.substr(e.name_at, e.name_size) + "'"; };
  const std::string how = a.start == b.start
                              ? " share the local entry at offset " + std::to_string(a.start)
                              : " overlap: the local entry at offset " + std::to_string(b.start) +
                                    " is inside the one at offset " + std::to_string(a.start);
  return "central-directory entries " + name(a) + " and " + name(b) + how + " (" +
         std::to_string(overlapping) + " of the " + std::to_string(entries.size()) +
         " entries overlap another): unzip refuses such a zip (\"overlapped components\", a zip bomb), a "
         "reader "
         "trusting the directory writes every entry";
}

}  // namespace

std::string ZipOverlaps(const std::string& file, uint64_t max_entries) {
  const int fd = open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return "";
  struct stat st;
  std::string why;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    why = Overlaps([fd](uint64_t offset, size_t size) { return ReadRange(fd, offset, size); },
                   uint64_t(st.st_size), max_entries);
  }
  close(fd);
  return why;
}

std::string ZipOverlapsIn(const std::string& bytes, uint64_t max_entries) {
  return Overlaps(
      [&bytes](uint64_t offset, size_t size) {
        return offset >= bytes.size() ? std::string() : bytes.substr(size_t(offset), size);
      },
      bytes.size(), max_entries);
}

}  // namespace rocm_audit
