// Offsets, hashes and e_flags values in messages and reports are hexadecimal, as
// readelf and llvm-readobj print them.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace rocm_audit {

/// "0x1f" for 31.
inline std::string Hex(uint64_t value) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(value));
  return buf;
}

}  // namespace rocm_audit
