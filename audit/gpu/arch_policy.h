// Which devices a set of code objects can serve (docs/design.md §F6): a requirement is a
// target ID read as "this device must be able to load the code". Plain gfx90a means every
// xnack/sramecc mode of a gfx90a device; gfx90a:xnack+ means that mode only. A mode is
// served by an entry for the same processor (or its generic target) whose features are
// "any" or equal to the mode's; with --isa-compat debian, also by the processors the
// Debian/Gentoo/Solus extended-compatibility patches let that device load.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "audit/gpu/amdgpu_target.h"

namespace rocm_audit {

enum class IsaCompat { kNone, kDebian };

/// The packager's policy: targets every file with device code must serve (--require-arch;
/// empty = none asked), and which compatibility routes count.
struct ArchRequirement {
  std::vector<TargetId> targets;
  IsaCompat isa_compat = IsaCompat::kNone;
};

/// Parses "gfx906,gfx90a:xnack+;gfx1030 gfx1100" (commas, semicolons or spaces, as
/// GPU_TARGETS lists are written) into target IDs. Unknown processors are errors here:
/// a typo in a policy must not pass silently.
[[nodiscard]] bool ParseArchList(std::string_view text, std::vector<TargetId>* out, std::string* error);

/// Reads an arch list file: one or more IDs per line, '#' starts a comment.
[[nodiscard]] bool ParseArchFile(std::string_view contents, std::vector<TargetId>* out, std::string* error);

/// One device entry a file carries.
struct ArchOffer {
  TargetId target;
  bool compressed = false;  ///< it sits in a CCOB (the runtime looks it up by exact ID)
};

enum class ServedBy { kNone, kExact, kGeneric, kIsaCompat };

struct Coverage {
  ServedBy by = ServedBy::kNone;        ///< the weakest route any required mode needed
  std::vector<std::string> unserved;    ///< device modes nothing serves, e.g. "gfx90a:xnack-"
  size_t modes = 0;                     ///< device modes the requirement covers
  bool compat_only_compressed = false;  ///< some mode is served only by compat, all from CCOBs
};

Coverage CheckRequirement(const TargetId& required, const std::vector<ArchOffer>& offers, IsaCompat compat);

/// Whether a device with `device` processor may load code for `code` under the patches.
bool DebianIsaCompatible(std::string_view device, std::string_view code);

}  // namespace rocm_audit
