// The wheel a Python extension module was installed from, and the ABI its tags name. A
// wheel's *.dist-info/RECORD lists its files relative to the directory that holds the
// dist-info (the wheel's root, or site-packages once installed), and *.dist-info/WHEEL has
// one `Tag: PYTHON-ABI-PLATFORM` line per compatibility tag (the binary distribution format,
// PEP 427/425). auditwheel reads the same tags to decide what the wheel links.
#pragma once

#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace rocm_audit {

/// The interpreter ABI of a wheel's first tag that names one.
struct WheelAbi {
  enum class Kind { kCPython, kStableAbi, kPyPy };
  Kind kind = Kind::kCPython;
  std::string version;  ///< "3.11" (kCPython, kPyPy), "3.8" for cp38-abi3 (the least minor)
  std::string tag;      ///< the tag as written ("cp311-cp311-manylinux_2_17_x86_64")
};

/// The ABI of one `Tag:` value: cp311-cp311-* (CPython 3.11), cp38-abi3-* (the stable ABI of
/// 3.8 and later), pp310-pypy310_pp73-* (PyPy 3.10); nullopt for none-ABI tags (py3-none-*).
std::optional<WheelAbi> ParseWheelTag(const std::string& tag);

/// Finds the wheel of a module by its path, reading the dist-info directories of the
/// module's ancestor directories once each. Thread-safe.
class WheelIndex {
 public:
  /// The ABI of the wheel whose RECORD lists `module` (a host path); nullopt when no
  /// dist-info of an ancestor directory lists it, or its tags name no interpreter ABI.
  std::optional<WheelAbi> AbiOf(const std::string& module) const;

 private:
  struct DistInfo {
    std::unordered_set<std::string> record;  ///< paths relative to the dist-info's parent
    std::optional<WheelAbi> abi;
  };
  const std::vector<DistInfo>& DistInfosIn(const std::string& dir) const;

  mutable std::mutex mutex_;
  mutable std::unordered_map<std::string, std::vector<DistInfo>> by_dir_;
};

}  // namespace rocm_audit
