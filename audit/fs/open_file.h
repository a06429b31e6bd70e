// Opening a file the walk did not classify (a loader candidate, an ld.so.conf) without ever
// blocking. open(2) of a FIFO for reading waits for a writer, and ld.so
// itself would hang there (elf/dl-load.c, open_verify, opens every candidate O_RDONLY); a
// device may never end or act on open. So the type is checked first, the open is
// non-blocking, and the type is checked again on the descriptor, which a rename in between
// cannot change.
#pragma once

#include <sys/stat.h>

#include <optional>
#include <string>

namespace rocm_audit {

/// "a FIFO", "a socket", "a character device", "a block device": what the walk and the
/// loader never open, in their words; "" for any other type.
std::string SpecialFileKind(mode_t mode);

struct OpenedFile {
  int fd = -1;          ///< -1 when not opened
  struct stat st = {};  ///< fstat of fd; when refused, what stat() found
  std::string special;  ///< SpecialFileKind when refused for its type
  std::string error;    ///< strerror when stat or open failed (EISDIR's for a directory refused)
};

/// Whether the last component of a path may be a symbolic link that the open follows. A
/// member a package unpacked, or a file a package database or a wheel's dist-info names, is
/// read as the file itself (O_NOFOLLOW): a link there to /dev/zero or out of the tree is
/// refused, never read through.
enum class Links { kFollow, kRefuse };

/// Opens `path` (symlinks followed unless `links` refuses them) read-only and close-on-exec,
/// never blocking: a FIFO, socket or device is refused before and after the open (`special`
/// says which), and so is a directory unless `directory_ok`, and a symbolic link with
/// Links::kRefuse (`error` says so). The caller closes `fd`.
OpenedFile OpenNonBlocking(const std::string& path, bool directory_ok = false, Links links = Links::kFollow);

/// The first `size` bytes of an opened file (fewer when it ends sooner or a read fails).
std::string ReadUpTo(int fd, size_t size);

/// `size` bytes at `offset` of an opened file (fewer when it ends sooner or a read fails); the
/// file position is not moved (pread).
std::string ReadRange(int fd, uint64_t offset, size_t size);

/// What a regular file larger than the cap gives ReadRegularFile: nothing, or its first
/// `cap` bytes.
enum class PastCap { kRefused, kCut };

/// A regular file's text read by ReadRegularFile, or why it was not read.
struct RegularFileText {
  std::optional<std::string> text;  ///< nullopt when refused
  /// Why it was refused, as the walk names it: "is not a regular file (a FIFO)", "cannot be
  /// opened: No such file or directory", "is larger than N bytes".
  std::string why;
  struct stat st = {};  ///< the file's fstat (its device and inode); what stat() found when refused
};

/// The text of the regular file `path` (symlinks followed unless `links` refuses them), opened
/// as OpenNonBlocking opens it, never blocking: a file of another type is refused, and so is
/// one larger than `cap` bytes, unless `past_cap` takes its first `cap` bytes.
RegularFileText ReadRegularFile(const std::string& path, size_t cap, PastCap past_cap = PastCap::kRefused,
                                Links links = Links::kFollow);

}  // namespace rocm_audit
