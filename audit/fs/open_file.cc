#include "audit/fs/open_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace rocm_audit {

std::string SpecialFileKind(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "";
}

namespace {

// Why a file of this type is not opened: its special kind, or for a directory that the
// caller does not take, what open(2) would say of it.
bool Refuse(const struct stat& st, bool directory_ok, OpenedFile* out) {
  if (S_ISREG(st.st_mode) || (directory_ok && S_ISDIR(st.st_mode))) return false;
  out->special = SpecialFileKind(st.st_mode);
  if (out->special.empty()) out->error = strerror(S_ISDIR(st.st_mode) ? EISDIR : EINVAL);
  return true;
}

}  // namespace

OpenedFile OpenNonBlocking(const std::string& path, bool directory_ok, Links links) {
  OpenedFile out;
  const bool follow = links == Links::kFollow;
  if ((follow ? stat(path.c_str(), &out.st) : lstat(path.c_str(), &out.st)) != 0) {
    out.error = strerror(errno);
    return out;
  }
  if (!follow && S_ISLNK(out.st.st_mode)) {
    out.error = "a symbolic link, not followed";
    return out;
  }
  if (Refuse(out.st, directory_ok, &out)) return out;
  // O_NOFOLLOW: a link put in place after the lstat fails the open (ELOOP) instead.
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | (follow ? 0 : O_NOFOLLOW));
  if (fd < 0) {
    out.error = strerror(errno);
    return out;
  }
  if (fstat(fd, &out.st) != 0) {
    out.error = strerror(errno);
    close(fd);
    return out;
  }
  if (Refuse(out.st, directory_ok, &out)) {
    close(fd);
    return out;
  }
  out.fd = fd;
  return out;
}

std::string ReadUpTo(int fd, size_t size) {
  std::string text(size, '\0');
  size_t got = 0;
  while (got < text.size()) {
    ssize_t n = read(fd, text.data() + got, text.size() - got);
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  text.resize(got);
  return text;
}

std::string ReadRange(int fd, uint64_t offset, size_t size) {
  std::string text(size, '\0');
  size_t got = 0;
  while (got < text.size()) {
    ssize_t n = pread(fd, text.data() + got, text.size() - got, static_cast<off_t>(offset + got));
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  text.resize(got);
  return text;
}

RegularFileText ReadRegularFile(const std::string& path, size_t cap, PastCap past_cap, Links links) {
  RegularFileText out;
  OpenedFile opened = OpenNonBlocking(path, false, links);
  out.st = opened.st;
  if (opened.fd < 0) {
    out.why = !opened.special.empty() ? "is not a regular file (" + opened.special + ")"
              : opened.error.empty()  ? "cannot be opened"
                                      : "cannot be opened: " + opened.error;
    return out;
  }
  const uint64_t size = static_cast<uint64_t>(opened.st.st_size);
  if (size <= cap || past_cap == PastCap::kCut)
    out.text = ReadUpTo(opened.fd, static_cast<size_t>(std::min<uint64_t>(size, cap)));
  else
    out.why = "is larger than " + std::to_string(cap) + " bytes";
  close(opened.fd);
  return out;
}

}  // namespace rocm_audit
