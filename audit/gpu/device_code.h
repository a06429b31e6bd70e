// Finds the device code a file carries, wherever it sits (docs/design.md §F3): the
// .hip_fatbin section of executables, libraries and objects; the per-target
// __CLANG_OFFLOAD_BUNDLE__<id> sections of -fgpu-rdc objects; archive members; standalone
// bundle files; bare AMDGPU code objects. The .hipFatBinSegment wrappers (the pointers
// the HIP runtime registers) are a second route to each bundle and are cross-checked.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "audit/fs/file_kind.h"
#include "audit/gpu/arch_policy.h"
#include "audit/gpu/bundle.h"

namespace rocm_audit {

struct DeviceInventory {
  std::vector<Bundle> bundles;
  std::vector<BundleProblem> problems;  ///< outside any one bundle (e.g. junk between them)
  size_t wrappers = 0;                  ///< .hipFatBinSegment records read

  /// What the device entries offer for arch coverage, one per entry.
  std::vector<ArchOffer> Offers() const;
  bool empty() const { return bundles.empty() && problems.empty(); }
};

/// `bytes` is the whole file, of the given kind. Never fails: what cannot be read is a
/// problem in the inventory.
DeviceInventory FindDeviceCode(FileKind kind, std::string_view bytes, const BundleReadOptions& options);

/// The device targets of every object a run looks at, by real path: filled from the audited
/// files, and on first use for closure members outside the audited paths. Thread-safe.
class DeviceOfferCache {
 public:
  explicit DeviceOfferCache(BundleReadOptions options) : options_(options) {}
  void Put(const std::string& real_path, std::vector<ArchOffer> offers);
  /// The offers of the ELF file `bytes` (parsed once, whoever asks first).
  const std::vector<ArchOffer>& Get(std::string_view real_path, std::string_view bytes);

 private:
  struct Slot {
    std::once_flag once;
    std::vector<ArchOffer> offers;
    /// Put: filled before the slot is published (under mutex_), never written after, so
    /// that a slot put costs no call_once (glibc's pthread_once ends in a futex wake
    /// system call, once per audited file).
    bool put = false;
  };
  BundleReadOptions options_;
  std::mutex mutex_;
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  // Looked up for every object of every closure: by the closure's view of the path, with
  // no copy of it.
  std::unordered_map<std::string, std::shared_ptr<Slot>, Hash, std::equal_to<>> slots_;
};

}  // namespace rocm_audit
