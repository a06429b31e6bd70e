// Where a file that a package config names, but that is not installed at that path, is
// installed after all: in another directory of the same name below the audited PATH
// (AMDDeviceLibs names /usr/lib/amdgcn/bitcode/ocml.bc; Debian installs it under
// /usr/lib/llvm-21/lib/clang/21/amdgcn/bitcode). Then the fix is the path the config
// computes, not a missing package.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace rocm_audit {

class InstalledElsewhere {
 public:
  /// `under`: the host directory to search (the PATH argument the config was found under).
  explicit InstalledElsewhere(std::string under) : under_(std::move(under)) {}

  /// The host path of a file named like `missing` in a directory named like `missing`'s own,
  /// or "" when there is none (or the search bounds were hit before one was seen).
  std::string Find(const std::string& missing);

 private:
  void Index();
  std::string under_;
  bool indexed_ = false;
  std::map<std::string, std::vector<std::string>> directories_by_name_;  ///< leaf name -> host dirs
};

}  // namespace rocm_audit
