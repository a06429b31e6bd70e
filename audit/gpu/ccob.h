// Compressed offload bundles ("CCOB", docs/design.md §F2): the header of versions 1-3 and a
// streaming decoder for their zstd or zlib payload. Memory stays bounded whatever the
// header claims: output is handed over in fixed-size chunks and never accumulated here.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>

namespace rocm_audit {

class DecodeMemory;

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
[[nodiscard]] bool ParseCcobHeader(std::string_view bytes, CcobHeader* out, std::string* error);

struct DecodeResult {
  uint64_t consumed = 0;  ///< compressed bytes used (V1: where the stream ended)
  uint64_t produced = 0;  ///< decompressed bytes handed to the sink
};

/// A bundle decompressed in one piece (see DecodeCcobPayload), held until destroyed.
class WholeBundle {
 public:
  WholeBundle() = default;
  WholeBundle(DecodeMemory* memory, char* data, size_t size)
      : memory_(memory), data_(data), size_(size), set_(true) {}
  WholeBundle(WholeBundle&& o) noexcept { *this = std::move(o); }
  WholeBundle& operator=(WholeBundle&& o) noexcept;
  ~WholeBundle();
  explicit operator bool() const { return set_; }
  std::string_view bytes() const { return {data_, size_}; }
  void Truncate(size_t size) { size_ = std::min(size_, size); }  ///< only the first `size` bytes are in use

 private:
  DecodeMemory* memory_ = nullptr;  // nullptr: data_ came from malloc
  char* data_ = nullptr;
  size_t size_ = 0;
  bool set_ = false;
};

/// Decompresses `payload` (the bytes after the header), calling `sink(offset, chunk)` in
/// order. Stops with an error when more than `max_output` bytes come out, when the stream
/// is corrupt or truncated, or when `sink` returns false. `whole_payload`: the payload
/// size is known (V2/V3), so the stream must end exactly there; otherwise (V1) it ends
/// where the compressed stream says it does. The zstd window comes from `memory`, shared by
/// a run's workers (nullptr: allocated for this call).
///
/// The frame LLVM writes (one zstd frame, content size known and within its window and the
/// window cap) is decoded in one call. Then, when `whole` is given, the sink is not called:
/// the bytes are handed over in `*whole` instead, so that the caller reads them in place.
[[nodiscard]] bool DecodeCcobPayload(const CcobHeader& header, std::string_view payload, bool whole_payload,
                                     uint64_t max_output, DecodeMemory* memory,
                                     const std::function<bool(uint64_t offset, std::string_view chunk)>& sink,
                                     DecodeResult* result, std::string* error, WholeBundle* whole = nullptr);

/// How many bytes from a bundle's start its reading needs, told from its first `decoded`
/// bytes: more than decoded.size() while those do not tell yet.
using PrefixNeed = std::function<uint64_t(std::string_view decoded)>;

/// The frame LLVM writes (one zstd frame, content size declared, no checksum, no
/// dictionary), decoded from its start only as far as `need` asks: zstd decodes in order, so
/// the bytes past what a bundle's reading looks at (its table, its entries' ELF headers
/// and notes; nearly all of a bundle with one device entry) are never produced. The frame's
/// block headers are still walked to its end, so a truncated payload or bytes after the
/// frame are not taken for one; its content size is the frame header's, which zstd checks
/// only on decoding the last block (a wrong one is found with --verify-hash, which decodes
/// it all). `*prefix` holds the decoded bytes; result->produced is the content size.
/// Returns false, having set nothing, when the payload is not such a frame or its decoding
/// fails: the caller then decodes it whole with DecodeCcobPayload, which names the problem.
[[nodiscard]] bool DecodeCcobPrefix(const CcobHeader& header, std::string_view payload, bool whole_payload,
                                    uint64_t max_output, DecodeMemory* memory, const PrefixNeed& need,
                                    DecodeResult* result, WholeBundle* prefix);

}  // namespace rocm_audit
