#include "audit/unpack/package_metadata.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>

namespace rocm_audit {
namespace {

std::string Trim(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.pop_back();
  size_t start = s.find_first_not_of(" \t");
  return start == std::string::npos ? "" : s.substr(start);
}

// "Field: value" lines of the first paragraph; continuation lines (starting with a space)
// join the field before them.
void ForEachField(const std::string& text,
                  const std::function<void(const std::string&, const std::string&)>& f) {
  std::istringstream in(text);
  std::string line, field, value;
  auto flush = [&] {
    if (!field.empty()) f(field, Trim(value));
    field.clear();
    value.clear();
  };
  while (std::getline(in, line)) {
    if (line.empty() || line == "\r") break;
    if ((line[0] == ' ' || line[0] == '\t') && !field.empty()) {
      value += " " + Trim(line);
      continue;
    }
    flush();
    size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    field = line.substr(0, colon);
    value = line.substr(colon + 1);
  }
  flush();
}

uint32_t Be32(const unsigned char* p) {
  return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3];
}

// REQUIRENAME's `count` NUL-ended strings (of at most `size` bytes): the packages and
// capabilities it requires, without rpmlib()'s and file paths, which name no package.
void AddRpmRequires(const char* s, size_t size, uint32_t count, UnpackedPackage* out) {
  size_t at = 0;
  for (uint32_t i = 0; i < count && i < 65536 && at < size; ++i) {
    std::string name(s + at, strnlen(s + at, size - at));
    at += name.size() + 1;
    if (name.empty() || name.starts_with("rpmlib(") || name[0] == '/') continue;
    if (std::find(out->depends.begin(), out->depends.end(), name) == out->depends.end())
      out->depends.push_back(std::move(name));
  }
}

}  // namespace

void ApplyDebControl(const std::string& control, UnpackedPackage* out) {
  ForEachField(control, [&](const std::string& field, const std::string& value) {
    if (field == "Package") out->name = value;
    if (field == "Version") out->version = value;
    if (field == "Architecture") out->architecture = value;
    if (field == "Depends" || field == "Pre-Depends") {
      std::istringstream list(value);
      for (std::string dep; std::getline(list, dep, ',');)
        if (std::string d = Trim(dep); !d.empty()) out->depends.push_back(d);
    }
  });
}

void ApplyWheelMetadata(const std::string& metadata, UnpackedPackage* out) {
  ForEachField(metadata, [&](const std::string& field, const std::string& value) {
    if (field == "Name") out->name = value;
    if (field == "Version") out->version = value;
    if (field == "Requires-Dist") out->depends.push_back(value);
  });
}

void ApplyCondaIndex(const std::string& index_json, UnpackedPackage* out) {
  nlohmann::json index = nlohmann::json::parse(index_json, nullptr, false);
  if (!index.is_object()) return;
  if (index.contains("name") && index["name"].is_string()) out->name = index["name"];
  if (index.contains("version") && index["version"].is_string()) out->version = index["version"];
  if (index.contains("depends") && index["depends"].is_array()) {
    const nlohmann::json& depends = index["depends"];
    for (const auto& d : depends)
      if (d.is_string()) out->depends.push_back(d);
  }
}

// The lead (96 bytes), the signature header, then the header (each: 8 bytes of magic and
// reserved, index count, data size, 16-byte index entries, the data; the signature is padded
// to 8 bytes) as rpm's lib/package.c reads them.
void ApplyRpmHeader(const std::string& file, UnpackedPackage* out) {
  int fd = open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  std::string buf(1 << 20, '\0');
  ssize_t n = pread(fd, buf.data(), buf.size(), 0);
  close(fd);
  if (n < 96) return;
  buf.resize(size_t(n));
  const auto* p = reinterpret_cast<const unsigned char*>(buf.data());
  size_t at = 96;
  for (int header = 0; header < 2; ++header) {
    if (at + 16 > buf.size() || p[at] != 0x8e || p[at + 1] != 0xad || p[at + 2] != 0xe8) return;
    const uint64_t count = Be32(p + at + 8), data_size = Be32(p + at + 12);
    const size_t index = at + 16, data = index + count * 16;
    if (count > 65536 || data + data_size > buf.size()) return;
    if (header == 1) {
      std::string release;
      for (uint64_t i = 0; i < count; ++i) {
        const unsigned char* e = p + index + i * 16;
        const uint32_t tag = Be32(e), type = Be32(e + 4), offset = Be32(e + 8), n = Be32(e + 12);
        if (tag == 1049 && type == 8 && offset < data_size) {  // REQUIRENAME, RPM_STRING_ARRAY_TYPE
          AddRpmRequires(reinterpret_cast<const char*>(p + data + offset), data_size - offset, n, out);
          continue;
        }
        if (type != 6 || offset >= data_size) continue;  // RPM_STRING_TYPE
        const char* s = reinterpret_cast<const char*>(p + data + offset);
        std::string value(s, strnlen(s, data_size - offset));
        if (tag == 1000) out->name = value;
        if (tag == 1001) out->version = value;
        if (tag == 1002) release = value;
      }
      if (!release.empty()) out->version += "-" + release;
      return;
    }
    at = (data + data_size + 7) & ~size_t(7);
  }
}

}  // namespace rocm_audit
