#include "audit/unpack/rpm_header.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "audit/fs/open_file.h"

namespace rocm_audit {
namespace {

constexpr uint64_t kLeadSize = 96;
constexpr uint64_t kIntroSize = 16;        // magic (3), version (1), reserved (4), count, data size
constexpr uint64_t kMaxTags = 0xffff;      // HEADER_TAGS_MAX
constexpr uint64_t kMaxData = 0x0fffffff;  // HEADER_DATA_MAX
// The longest string value read for a name, version or release.
constexpr size_t kMaxString = 4096;
// REQUIRENAME's strings read at most.
constexpr size_t kMaxRequires = size_t(1) << 20;

uint32_t Be32(const unsigned char* p) {
  return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3];
}

// One header's place in the file.
struct Section {
  uint64_t index = 0;  // where its index entries start
  uint64_t count = 0;  // index entries
  uint64_t data = 0;   // where its data starts
  uint64_t data_size = 0;
  uint64_t end = 0;  // the byte after its data
};

// The header `what` ("the signature header", "the header") at `at`, or "" with `why`.
bool ReadSection(int fd, uint64_t file_size, uint64_t at, const char* what, Section* s, std::string* why) {
  const std::string intro = ReadRange(fd, at, kIntroSize);
  const std::string where = " at byte " + std::to_string(at);
  if (intro.size() < kIntroSize) {
    *why =
        std::string(what) + " is cut short" + where + ": the file ends at byte " + std::to_string(file_size);
    return false;
  }
  const auto* p = reinterpret_cast<const unsigned char*>(intro.data());
  if (p[0] != 0x8e || p[1] != 0xad || p[2] != 0xe8 || p[3] != 0x01) {
    *why = std::string(what) + where + " has no header magic (8e ad e8 01)";
    return false;
  }
  s->count = Be32(p + 8);
  s->data_size = Be32(p + 12);
  if (s->count > kMaxTags || s->data_size > kMaxData) {
    *why = std::string(what) + "'s index count " + std::to_string(s->count) + " or data size " +
           std::to_string(s->data_size) + " is past what rpm reads (65535 entries, 268435455 bytes)";
    return false;
  }
  s->index = at + kIntroSize;
  s->data = s->index + s->count * 16;
  s->end = s->data + s->data_size;
  if (s->end > file_size) {
    *why = std::string(what) + "'s index count " + std::to_string(s->count) + " and data size " +
           std::to_string(s->data_size) + " reach byte " + std::to_string(s->end) +
           ", past the end of the file (" + std::to_string(file_size) + " bytes)";
    return false;
  }
  return true;
}

// REQUIRENAME's `count` NUL-ended strings: the packages and capabilities it requires,
// without rpmlib()'s and file paths, which name no package.
void AddRequires(const std::string& s, uint32_t count, UnpackedPackage* out) {
  size_t at = 0;
  for (uint32_t i = 0; i < count && i <= kMaxTags && at < s.size(); ++i) {
    std::string name(s.data() + at, strnlen(s.data() + at, s.size() - at));
    at += name.size() + 1;
    if (name.empty() || name.starts_with("rpmlib(") || name[0] == '/') continue;
    if (std::find(out->depends.begin(), out->depends.end(), name) == out->depends.end())
      out->depends.push_back(std::move(name));
  }
}

// NAME, VERSION-RELEASE and REQUIRENAME from the header's entries; an entry whose offset is
// past the data is not read.
void ReadTags(int fd, const Section& h, UnpackedPackage* out) {
  const std::string index = ReadRange(fd, h.index, size_t(h.count * 16));
  std::string release;
  for (uint64_t i = 0; i + 1 <= index.size() / 16; ++i) {
    const auto* e = reinterpret_cast<const unsigned char*>(index.data()) + i * 16;
    const uint32_t tag = Be32(e), type = Be32(e + 4), offset = Be32(e + 8), n = Be32(e + 12);
    if (offset >= h.data_size) continue;
    const uint64_t left = h.data_size - offset;
    if (tag == 1049 && type == 8) {  // REQUIRENAME, RPM_STRING_ARRAY_TYPE
      AddRequires(ReadRange(fd, h.data + offset, size_t(std::min<uint64_t>(left, kMaxRequires))), n, out);
      continue;
    }
    if (type != 6) continue;  // RPM_STRING_TYPE
    std::string value = ReadRange(fd, h.data + offset, size_t(std::min<uint64_t>(left, kMaxString)));
    value.resize(strnlen(value.data(), value.size()));
    if (tag == 1000) out->name = value;
    if (tag == 1001) out->version = value;
    if (tag == 1002) release = value;
  }
  if (!release.empty()) out->version += "-" + release;
}

std::string ReadOpened(int fd, UnpackedPackage* out) {
  struct stat st;
  if (fstat(fd, &st) != 0) return std::string("cannot read it: ") + strerror(errno);
  const uint64_t size = uint64_t(st.st_size);
  if (size < kLeadSize)
    return "the lead is cut short: the file has " + std::to_string(size) + " of its 96 bytes";
  Section signature, header;
  std::string why;
  if (!ReadSection(fd, size, kLeadSize, "the signature header", &signature, &why)) return why;
  const uint64_t at = (signature.end + 7) & ~uint64_t(7);  // the signature is padded to 8 bytes
  if (!ReadSection(fd, size, at, "the header", &header, &why)) return why;
  ReadTags(fd, header, out);
  if (header.end >= size)
    return "no payload: the file ends with the header at byte " + std::to_string(header.end);
  return "";
}

}  // namespace

std::string ReadRpmHeader(const std::string& file, UnpackedPackage* out) {
  const int fd = open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return std::string("cannot open it: ") + strerror(errno);
  std::string why = ReadOpened(fd, out);
  close(fd);
  return why;
}

}  // namespace rocm_audit
