#include "audit/unpack/package_format.h"

#include <fcntl.h>
#include <unistd.h>

namespace rocm_audit {
namespace {

// An ar archive whose first member is "debian-binary" (dpkg-deb(1), deb(5)).
bool IsDeb(std::string_view head) {
  return head.substr(0, 8) == "!<arch>\n" && head.size() >= 8 + 16 && head.substr(8, 13) == "debian-binary";
}

bool IsTarOrCompressed(std::string_view head) {
  static constexpr std::string_view kMagics[] = {
      std::string_view("\x1f\x8b", 2),                  // gzip
      std::string_view("\xfd\x37\x7a\x58\x5a\x00", 6),  // xz
      std::string_view("\x28\xb5\x2f\xfd", 4),          // zstd
      std::string_view("BZh", 3),                       // bzip2
  };
  if (head.size() >= 262 && head.substr(257, 5) == "ustar") return true;  // POSIX and GNU tar
  for (std::string_view magic : kMagics)
    if (head.substr(0, magic.size()) == magic) return true;
  return false;
}

}  // namespace

std::string_view PackageFormatName(PackageFormat f) {
  switch (f) {
    case PackageFormat::kDeb: return "deb";
    case PackageFormat::kRpm: return "rpm";
    case PackageFormat::kWheel: return "wheel";
    case PackageFormat::kConda: return "conda";
    case PackageFormat::kTar: return "tar";
    case PackageFormat::kZip: return "zip";
  }
  return "?";
}

std::optional<PackageFormat> DetectPackageFormat(std::string_view path, std::string_view head) {
  if (IsDeb(head)) return PackageFormat::kDeb;
  if (head.substr(0, 4) == "\xed\xab\xee\xdb") return PackageFormat::kRpm;  // the RPM lead
  if (head.substr(0, 4) == std::string_view("PK\x03\x04", 4)) {
    // A wheel is also told by its *.dist-info/ once unpacked.
    if (path.ends_with(".whl")) return PackageFormat::kWheel;
    if (path.ends_with(".conda")) return PackageFormat::kConda;
    return PackageFormat::kZip;
  }
  // A conda v1 package (.tar.bz2) is told from a plain tarball by its info/index.json, which
  // only unpacking sees.
  if (IsTarOrCompressed(head)) return PackageFormat::kTar;
  return std::nullopt;
}

std::optional<PackageFormat> DetectPackageFile(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  char buf[512];
  ssize_t n = pread(fd, buf, sizeof buf, 0);
  close(fd);
  if (n <= 0) return std::nullopt;
  return DetectPackageFormat(path, std::string_view(buf, size_t(n)));
}

bool RelocatableByDesign(PackageFormat f) { return f == PackageFormat::kWheel || f == PackageFormat::kConda; }

}  // namespace rocm_audit
