// How a report names files: relative to the PATH argument that reached them, root-relative
// under --root, "PACKAGE:/member" inside a package; the same on every machine and from every
// working directory. Paths outside every input and root (the system's own libraries) stay
// as the host names them. --absolute-paths shows every path as an absolute host path.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace rocm_audit {

class PathDisplay {
 public:
  /// Paths at or below `host` (a file or directory; relative to the working directory or
  /// absolute) are shown as `shown` followed by the rest of the path. The longest mapped
  /// ancestor wins; `shown` may be "" (the rest alone), end in '/' or ':', or be a path.
  void Map(const std::string& host, std::string shown);
  /// In messages and hints, the mapped directory `host` itself (shown "." as a path) is named
  /// `given`: "it is in ., which ld.so does not search" would not say which directory.
  void NameInText(const std::string& host, std::string given);
  /// Show every path as an absolute host path instead (--absolute-paths).
  void SetAbsolute(bool absolute) { absolute_ = absolute; }

  /// `host_path` as the report shows it.
  std::string Show(std::string_view host_path) const;
  /// `host_path` as a sentence names it: Show(), but the one PATH given as a directory, shown
  /// "." as a path, by its name given to NameInText.
  std::string ShowInText(std::string_view host_path) const;

 private:
  /// Whether a value names a path of this machine: an absolute one, or one below a PATH given
  /// relative (as the walk names the files it finds there).
  bool NamesHostPath(std::string_view word) const;
  std::unordered_map<std::string, std::string> shown_;  ///< normalised host path -> shown
  std::vector<std::string> relative_;  ///< mapped paths given relative, as given (NamesHostPath)
  std::unordered_map<std::string, std::string> named_;  ///< normalised host path -> its name in text
  bool absolute_ = false;
};

/// The display of one run: each --root layer is shown as "/"; each PATH argument as "" when
/// it is the only one (its basename when it is a file), else as its last component; a PATH
/// argument inside a root as its root-relative path.
PathDisplay MakePathDisplay(const std::vector<std::string>& inputs, const std::vector<std::string>& roots,
                            bool absolute);

}  // namespace rocm_audit
