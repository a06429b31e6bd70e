// A .deb's control area alone: what the package says of itself (DEBIAN/control) and its own
// records of its libraries' ABI, DEBIAN/symbols (deb-symbols(5), written by dpkg-gensymbols)
// and DEBIAN/shlibs (deb-shlibs(5), by dh_makeshlibs). deb(5) puts control.tar.* before
// data.tar.*, so reading stops there: the package's files are never decompressed.
#pragma once

#include <string>

#include "audit/unpack/unpack.h"

namespace rocm_audit {

struct DebControlRecords {
  std::string package, version, architecture;  ///< DEBIAN/control's Package, Version, Architecture
  std::string symbols, shlibs;                 ///< their first MiB; "" when the package has none
};

/// Reads the control area of the .deb `file` within `limits` (its members and bytes charged as
/// unpacking charges them). False with `error` when the file is no .deb, has no control.tar
/// member before its data.tar, or a cap stops it.
bool ReadDebControlRecords(const std::string& file, const UnpackLimits& limits, DebControlRecords* out,
                           std::string* error);

}  // namespace rocm_audit
