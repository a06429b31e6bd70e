// Reads what an AMDGPU code object (an EM_AMDGPU ELF, bare or inside a bundle entry)
// says about itself: processor, xnack/sramecc modes, code object version, kernel count.
// Works on a prefix of the object, so a streamed (decompressed) entry need not be kept
// whole: the header, program headers and PT_NOTE segments sit at the front.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "audit/gpu/amdgpu_target.h"

namespace rocm_audit {

struct CodeObjectInfo {
  uint16_t type = 0;            ///< ET_DYN (loadable) or ET_REL
  uint8_t os_abi = 0;           ///< 64 = HSA, 65 = PAL, 66 = Mesa
  uint32_t mach = 0;            ///< e_flags & EF_AMDGPU_MACH
  std::string processor;        ///< "" when the mach value is unknown
  int code_object_version = 0;  ///< 2..6 from EI_ABIVERSION (HSA only), 0 when unknown
  FeatureSetting xnack = FeatureSetting::kUnsupported;
  FeatureSetting sramecc = FeatureSetting::kUnsupported;
  uint8_t generic_version = 0;
  std::optional<uint64_t> kernels;  ///< from the metadata note, when it was read

  /// The target ID the object can serve: features it leaves open are "any".
  TargetId target_id() const;
};

/// How many leading bytes InspectCodeObject needs to read the notes (header, program
/// headers, PT_NOTE segments), given at least the first `head.size()` bytes. Returns 0
/// when `head` is too short to tell yet (fewer than 64 bytes, or the program header table
/// is not in it).
uint64_t CodeObjectPrefixNeeded(std::string_view head);

/// Inspects a code object of `total_size` bytes from its first `prefix.size()` bytes.
/// Fails (with `error`) for anything the loader would refuse: not ELF64 LE, not EM_AMDGPU,
/// tables past `total_size`. Kernels are counted when the notes lie in `prefix`.
[[nodiscard]] bool InspectCodeObject(std::string_view prefix, uint64_t total_size, CodeObjectInfo* out,
                                     std::string* error);

}  // namespace rocm_audit
