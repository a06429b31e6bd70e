// A private directory (mode 0700, under $TMPDIR) that packages are unpacked into, removed when
// it goes out of scope and also when the process is interrupted (SIGINT, SIGTERM, SIGHUP):
// a dedicated thread waits for those signals, removes every live directory, then exits with
// the signal's status.
#pragma once

#include <string>

namespace rocm_audit {

class PrivateDir {
 public:
  /// Creates the directory; path() is empty (and `error` set) when it cannot.
  explicit PrivateDir(std::string* error);
  ~PrivateDir();
  PrivateDir(const PrivateDir&) = delete;
  PrivateDir& operator=(const PrivateDir&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

/// Removes a directory tree without following symbolic links (nftw FTW_PHYS | FTW_DEPTH).
void RemoveTree(const std::string& path);

}  // namespace rocm_audit
