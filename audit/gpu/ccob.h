// Compressed offload bundles ("CCOB", docs/design.md §F2): the header of versions 1-3 and a
// streaming decoder for their zstd or zlib payload. Memory stays bounded whatever the
// header claims: output is handed over in fixed-size chunks and never accumulated here.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace rocm_audit {

inline constexpr std::string_view kCcobMagic = "CCOB";

struct CcobHeader {
  int version = 0;
  int method = 0;  ///< 0 = zlib, 1 = zstd (llvm::compression::Format)
  uint64_t header_size = 0;
  uint64_t total_size = 0;  ///< V2/V3: header + payload; V1: 0 (not recorded)
  uint64_t uncompressed_size = 0;
  uint64_t hash = 0;  ///< low 64 bits of the MD5 of the uncompressed bundle
};

std::string_view CompressionName(int method);  ///< "zlib" | "zstd" | "unknown"

/// Reads the header at the start of `bytes` (which runs to the end of the container).
/// Fails for an unknown version or method, or a total size past the container.
bool ParseCcobHeader(std::string_view bytes, CcobHeader* out, std::string* error);

struct DecodeResult {
  uint64_t consumed = 0;  ///< compressed bytes used (V1: where the stream ended)
  uint64_t produced = 0;  ///< decompressed bytes handed to the sink
};

/// Decompresses `payload` (the bytes after the header), calling `sink(offset, chunk)` in
/// order. Stops with an error when more than `max_output` bytes come out, when the stream
/// is corrupt or truncated, or when `sink` returns false. `whole_payload`: the payload
/// size is known (V2/V3), so the stream must end exactly there; otherwise (V1) it ends
/// where the compressed stream says it does.
bool DecodeCcobPayload(const CcobHeader& header, std::string_view payload, bool whole_payload,
                       uint64_t max_output,
                       const std::function<bool(uint64_t offset, std::string_view chunk)>& sink,
                       DecodeResult* result, std::string* error);

}  // namespace rocm_audit
