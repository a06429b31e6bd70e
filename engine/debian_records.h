// Debian's records of the .deb packages among a side's inputs (audit/unpack/deb_control.h):
// the control area of each, read again on its own (a few KiB before the data), for `diff`.
#pragma once

#include <string>
#include <vector>

#include "audit/unpack/deb_control.h"

namespace rocm_audit {

/// The control areas of the .deb files among `inputs`, in their order; an input that is no
/// .deb, or whose control area cannot be read (its audit says why), gives none. Each within
/// kControlAreaLimits.
std::vector<DebControlRecords> DebianRecordsOf(const std::vector<std::string>& inputs);

/// A control area is a few KiB (bookworm librocrand1's DEBIAN/symbols is 13 KiB): 64 MiB
/// and 10,000 members bound what a package that lies about it costs.
inline constexpr UnpackLimits kControlAreaLimits{uint64_t(64) << 20, 10000, 200};

}  // namespace rocm_audit
