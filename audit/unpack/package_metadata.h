// What a package says of itself: name, version and dependencies, from a .deb's control file
// (deb-control(5)), a wheel's METADATA (core metadata, RFC 822 style), a conda package's
// info/index.json; an RPM header's in audit/unpack/rpm_header.h.
#pragma once

#include <string>

#include "audit/unpack/unpack.h"

namespace rocm_audit {

void ApplyDebControl(const std::string& control, UnpackedPackage* out);
void ApplyWheelMetadata(const std::string& metadata, UnpackedPackage* out);
void ApplyCondaIndex(const std::string& index_json, UnpackedPackage* out);

}  // namespace rocm_audit
