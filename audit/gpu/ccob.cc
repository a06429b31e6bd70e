#include "audit/gpu/ccob.h"

#include <llvm/Support/Endian.h>
#include <zlib.h>
#include <zstd.h>

#include <memory>
#include <vector>

namespace rocm_audit {
namespace {

using llvm::support::endian::read16le;
using llvm::support::endian::read32le;
using llvm::support::endian::read64le;

// zstd's default decoder limit (2^27 = 128 MiB): the window is the only memory that
// grows with the bundle, and a frame asking for more is refused, not honoured.
constexpr int kZstdWindowLogMax = 27;
constexpr size_t kChunk = 256 * 1024;

// Hands one decompressed chunk to the sink, refusing output beyond the declared size.
bool Emit(std::string_view chunk, uint64_t max_output,
          const std::function<bool(uint64_t, std::string_view)>& sink, DecodeResult* r, std::string* error) {
  if (chunk.empty()) return true;
  if (chunk.size() > max_output - r->produced) {
    *error = "decompresses to more than the " + std::to_string(max_output) + " bytes its header declares";
    return false;
  }
  if (!sink(r->produced, chunk)) return false;
  r->produced += chunk.size();
  return true;
}

bool DecodeZstd(std::string_view in, bool whole_payload, uint64_t max_output,
                const std::function<bool(uint64_t, std::string_view)>& sink, DecodeResult* r,
                std::string* error) {
  // One decoder per thread, reused: a fresh one per bundle would map and fault in a new
  // window (up to 128 MiB) every time, which cost more system time than decoding did.
  thread_local std::unique_ptr<ZSTD_DStream, size_t (*)(ZSTD_DStream*)> ds(ZSTD_createDStream(),
                                                                           ZSTD_freeDStream);
  thread_local std::vector<char> out(kChunk);
  if (!ds) {
    *error = "zstd: out of memory";
    return false;
  }
  ZSTD_DCtx_reset(ds.get(), ZSTD_reset_session_and_parameters);
  ZSTD_DCtx_setParameter(ds.get(), ZSTD_d_windowLogMax, kZstdWindowLogMax);
  ZSTD_inBuffer input{in.data(), in.size(), 0};
  size_t pending = 1;  // 0 once a frame is complete and fully flushed
  for (;;) {
    ZSTD_outBuffer output{out.data(), out.size(), 0};
    pending = ZSTD_decompressStream(ds.get(), &output, &input);
    if (ZSTD_isError(pending)) {
      *error = std::string("zstd: ") + ZSTD_getErrorName(pending);
      return false;
    }
    if (!Emit(std::string_view(out.data(), output.pos), max_output, sink, r, error)) return false;
    // V1: the frame's end is the bundle's end. V2/V3: further frames may follow.
    if (pending == 0 && (!whole_payload || input.pos == input.size)) break;
    if (output.pos == 0 && input.pos == input.size) break;  // input spent, nothing held back
  }
  if (pending != 0) {
    *error = "zstd: the compressed stream is truncated";
    return false;
  }
  r->consumed = input.pos;
  return true;
}

bool DecodeZlib(std::string_view in, bool whole_payload, uint64_t max_output,
                const std::function<bool(uint64_t, std::string_view)>& sink, DecodeResult* r,
                std::string* error) {
  z_stream zs{};
  if (inflateInit(&zs) != Z_OK) {
    *error = "zlib: cannot initialise";
    return false;
  }
  std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&zs, inflateEnd);
  std::vector<char> out(kChunk);
  uint64_t fed = 0;
  int ret = Z_OK;
  while (ret != Z_STREAM_END) {
    if (zs.avail_in == 0) {
      if (fed == in.size()) break;
      uInt n = uInt(std::min<uint64_t>(in.size() - fed, 1u << 30));
      zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data() + fed));
      zs.avail_in = n;
      fed += n;
    }
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = uInt(out.size());
    ret = inflate(&zs, Z_NO_FLUSH);
    if (ret != Z_OK && ret != Z_STREAM_END && ret != Z_BUF_ERROR) {
      *error = std::string("zlib: ") + (zs.msg ? zs.msg : "corrupt stream");
      return false;
    }
    size_t produced = out.size() - zs.avail_out;
    if (!Emit(std::string_view(out.data(), produced), max_output, sink, r, error)) return false;
    if (produced == 0 && ret == Z_BUF_ERROR && zs.avail_in == 0 && fed == in.size()) break;
  }
  if (ret != Z_STREAM_END) {
    *error = "zlib: the compressed stream is truncated";
    return false;
  }
  r->consumed = fed - zs.avail_in;
  if (whole_payload && r->consumed != in.size()) {
    *error =
        "zlib: " + std::to_string(in.size() - r->consumed) + " bytes follow the end of the compressed stream";
    return false;
  }
  return true;
}

}  // namespace

std::string_view CompressionName(int method) {
  return method == 0 ? "zlib" : method == 1 ? "zstd" : "unknown";
}

bool ParseCcobHeader(std::string_view bytes, CcobHeader* out, std::string* error) {
  if (bytes.size() < 8 || bytes.substr(0, 4) != kCcobMagic) {
    *error = "no CCOB magic";
    return false;
  }
  const char* p = bytes.data();
  out->version = read16le(p + 4);
  out->method = read16le(p + 6);
  switch (out->version) {
    case 1: out->header_size = 20; break;
    case 2: out->header_size = 24; break;
    case 3: out->header_size = 32; break;
    default: *error = "unknown CCOB version " + std::to_string(out->version); return false;
  }
  if (bytes.size() < out->header_size) {
    *error = "CCOB v" + std::to_string(out->version) + " header is truncated (" +
             std::to_string(bytes.size()) + " of " + std::to_string(out->header_size) + " bytes)";
    return false;
  }
  if (out->version == 1) {
    out->uncompressed_size = read32le(p + 8);
    out->hash = read64le(p + 12);
  } else if (out->version == 2) {
    out->total_size = read32le(p + 8);
    out->uncompressed_size = read32le(p + 12);
    out->hash = read64le(p + 16);
  } else {
    out->total_size = read64le(p + 8);
    out->uncompressed_size = read64le(p + 16);
    out->hash = read64le(p + 24);
  }
  if (out->method != 0 && out->method != 1) {
    *error = "unknown compression method " + std::to_string(out->method);
    return false;
  }
  if (out->version >= 2) {
    if (out->total_size <= out->header_size) {
      *error = "total size " + std::to_string(out->total_size) + " leaves no payload";
      return false;
    }
    if (out->total_size > bytes.size()) {
      *error = "total size " + std::to_string(out->total_size) + " runs past the end of the container (" +
               std::to_string(bytes.size()) + " bytes left)";
      return false;
    }
  }
  return true;
}

bool DecodeCcobPayload(const CcobHeader& header, std::string_view payload, bool whole_payload,
                       uint64_t max_output, const std::function<bool(uint64_t, std::string_view)>& sink,
                       DecodeResult* result, std::string* error) {
  *result = {};
  if (header.method == 1) return DecodeZstd(payload, whole_payload, max_output, sink, result, error);
  return DecodeZlib(payload, whole_payload, max_output, sink, result, error);
}

}  // namespace rocm_audit
