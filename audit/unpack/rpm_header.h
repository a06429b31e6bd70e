// An RPM file's lead and headers, read as rpm reads them (lib/package.c, lib/header.c): the
// lead (96 bytes), the signature header padded to 8 bytes, the header, then the payload. Each
// header is 8 bytes of magic and reserved, an index count and a data size (big-endian), the
// count's 16-byte index entries and the data. rpm refuses a count past 65,535 or data past
// 256 MiB (HEADER_TAGS_MAX, HEADER_DATA_MAX in lib/header_internal.h), and a header cut short
// by the file's end; so does this reader, saying which part lies.
#pragma once

#include <string>

#include "audit/unpack/unpack.h"

namespace rocm_audit {

/// Reads the header of the RPM file `file` into `out` (NAME 1000, VERSION 1001, RELEASE 1002,
/// REQUIRENAME 1049). "" when the lead, both headers and a payload are there; else what lies
/// ("the header's index count 4096 and data size 65536 reach byte 131328, past the end of the
/// file (2000 bytes)"), and the package cannot be read.
std::string ReadRpmHeader(const std::string& file, UnpackedPackage* out);

}  // namespace rocm_audit
