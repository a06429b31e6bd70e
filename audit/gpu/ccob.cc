#include "audit/gpu/ccob.h"

#include <llvm/Support/Endian.h>
#include <zlib.h>
// For ZSTD_customMem and ZSTD_createDStream_advanced, which Debian's libzstd exports.
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include <cstdlib>
#include <memory>
#include <optional>
#include <vector>

#include "audit/gpu/decode_memory.h"

namespace rocm_audit {
namespace {

using llvm::support::endian::read16le;
using llvm::support::endian::read32le;
using llvm::support::endian::read64le;

// zstd's default decoder limit (2^27 = 128 MiB): the window is the only memory that
// grows with the bundle, and a frame asking for more is refused, not honoured.
constexpr int kZstdWindowLogMax = 27;
constexpr size_t kChunk = 256 * 1024;
// A prefix decode starts with this much room and doubles it (decoding again from the
// start) while the bundle's reading asks for more.
constexpr uint64_t kFirstPrefixRoom = 512 * 1024;
// How often one decode asks how far to go before it decodes the rest whole: a bundle's
// table, then its entries' first bytes, then their notes take three or four.
constexpr int kMaxNeedCalls = 64;

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

void* AllocateFrom(void* memory, size_t size) { return static_cast<DecodeMemory*>(memory)->Allocate(size); }
void FreeTo(void* memory, void* p) { static_cast<DecodeMemory*>(memory)->Free(p); }

using DStream = std::unique_ptr<ZSTD_DStream, size_t (*)(ZSTD_DStream*)>;

// A decoder per bundle, its window taken from the run's shared memory: freeing the decoder
// gives the window back for the next bundle (of any worker) instead of keeping one per
// thread. Without shared memory (tests, fuzzers) it allocates its own.
DStream NewDecoder(DecodeMemory* memory) {
  if (!memory) return DStream(ZSTD_createDStream(), ZSTD_freeDStream);
  return DStream(ZSTD_createDStream_advanced(ZSTD_customMem{AllocateFrom, FreeTo, memory}), ZSTD_freeDStream);
}

// Gives `whole` to the sink in chunks of the streaming size, so that the sink's own work
// (the entry table is parsed from what has arrived) stays the same on either path.
bool EmitInChunks(std::string_view whole, uint64_t max_output,
                  const std::function<bool(uint64_t, std::string_view)>& sink, DecodeResult* r,
                  std::string* error) {
  for (size_t at = 0; at < whole.size(); at += kChunk)
    if (!Emit(whole.substr(at, kChunk), max_output, sink, r, error)) return false;
  return true;
}

// The frame LLVM writes for a bundle: one frame, its content size known and within its
// window (single-segment). Decoded in one call into a buffer of that size, which is the
// window it needs anyway; streaming would copy every byte out of the decoder's own buffer
// once more. Larger ones stream, so that one decode never holds more than the window cap.
std::optional<size_t> WholeFrameSize(std::string_view in, bool whole_payload, uint64_t max_output) {
  ZSTD_frameHeader fh;
  if (ZSTD_getFrameHeader(&fh, in.data(), in.size()) != 0 || fh.frameType != ZSTD_frame) return std::nullopt;
  if (fh.frameContentSize == ZSTD_CONTENTSIZE_UNKNOWN || fh.frameContentSize > fh.windowSize ||
      fh.frameContentSize > (uint64_t(1) << kZstdWindowLogMax) || fh.frameContentSize > max_output)
    return std::nullopt;
  size_t frame = ZSTD_findFrameCompressedSize(in.data(), in.size());
  if (ZSTD_isError(frame) || (whole_payload && frame != in.size())) return std::nullopt;
  return frame;
}

bool DecodeZstdWhole(std::string_view frame, uint64_t max_output, DecodeMemory* memory,
                     const std::function<bool(uint64_t, std::string_view)>& sink, DecodeResult* r,
                     std::string* error, WholeBundle* whole) {
  const size_t size = ZSTD_getFrameContentSize(frame.data(), frame.size());
  thread_local std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> dctx(ZSTD_createDCtx(), ZSTD_freeDCtx);
  char* data = nullptr;
  if (size) data = static_cast<char*>(memory ? memory->Allocate(size) : std::malloc(size));
  WholeBundle bytes(memory, data, size);
  if (!dctx || (size && !data)) {
    *error = "zstd: out of memory";
    return false;
  }
  size_t got = ZSTD_decompressDCtx(dctx.get(), data, size, frame.data(), frame.size());
  if (ZSTD_isError(got)) {
    *error = std::string("zstd: ") + ZSTD_getErrorName(got);
    return false;
  }
  r->consumed = frame.size();
  if (whole) {
    r->produced = got;
    *whole = WholeBundle(std::move(bytes));
    return true;
  }
  return EmitInChunks(std::string_view(data, got), max_output, sink, r, error);
}

bool DecodeZstd(std::string_view in, bool whole_payload, uint64_t max_output, DecodeMemory* memory,
                const std::function<bool(uint64_t, std::string_view)>& sink, DecodeResult* r,
                std::string* error, WholeBundle* whole) {
  if (std::optional<size_t> frame = WholeFrameSize(in, whole_payload, max_output))
    return DecodeZstdWhole(in.substr(0, *frame), max_output, memory, sink, r, error, whole);
  DStream ds = NewDecoder(memory);
  thread_local std::vector<char> out(kChunk);
  if (!ds) {
    *error = "zstd: out of memory";
    return false;
  }
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

// The frame a prefix is decoded from: one zstd frame, no dictionary, no checksum (a
// checksum is verified only by decoding it all), its content size declared and within
// `max_output`, its window within the cap the whole decode sets, and (V2/V3) ending where
// the payload ends. Its block headers are walked to its end (ZSTD_findFrameCompressedSize),
// so a truncated frame, or bytes after it, is not taken for one.
std::optional<size_t> PrefixFrameSize(std::string_view in, bool whole_payload, uint64_t max_output,
                                      ZSTD_frameHeader* fh) {
  if (ZSTD_getFrameHeader(fh, in.data(), in.size()) != 0 || fh->frameType != ZSTD_frame) return std::nullopt;
  if (fh->frameContentSize == ZSTD_CONTENTSIZE_UNKNOWN || fh->frameContentSize > max_output ||
      fh->windowSize > (uint64_t(1) << kZstdWindowLogMax) || fh->dictID != 0 || fh->checksumFlag)
    return std::nullopt;
  size_t frame = ZSTD_findFrameCompressedSize(in.data(), in.size());
  if (ZSTD_isError(frame) || (whole_payload && frame != in.size())) return std::nullopt;
  return frame;
}

// Decodes blocks of `frame` from its start into `out` (`capacity` bytes), block by block
// through zstd's buffer-less API, until `need` is met or the next block may not fit. The
// decoded bytes stay where they were written: they are the history later blocks copy from.
// Returns the bytes decoded, or nullopt on a decoding error.
std::optional<uint64_t> DecodeBlocksInto(std::string_view frame, const ZSTD_frameHeader& fh, char* out,
                                         uint64_t capacity, const PrefixNeed& need, uint64_t* wanted,
                                         bool* done) {
  thread_local std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> dctx(ZSTD_createDCtx(), ZSTD_freeDCtx);
  if (!dctx || ZSTD_isError(ZSTD_decompressBegin(dctx.get()))) return std::nullopt;
  const uint64_t content = fh.frameContentSize;
  uint64_t produced = 0;
  size_t at = 0;
  for (int asked = 0;;) {
    const size_t next = ZSTD_nextSrcSizeToDecompress(dctx.get());
    if (next == 0) {  // the frame's end: zstd has checked that it produced its content size
      *done = true;
      return produced;
    }
    if (produced >= *wanted && ZSTD_nextInputType(dctx.get()) == ZSTDnit_blockHeader) {
      // need() is asked only when what it asked for last has arrived: its table parse and
      // ELF headers are read a few times per bundle, not once per block.
      *wanted = ++asked > kMaxNeedCalls ? content : std::min(content, need(std::string_view(out, produced)));
      if (*wanted <= produced) {
        *done = true;
        return produced;
      }
    }
    if (next > frame.size() - at) return std::nullopt;
    // Short of room for a whole block before the content's end: grown, decoded again.
    if (capacity < content && capacity - produced < fh.blockSizeMax) return produced;
    size_t got =
        ZSTD_decompressContinue(dctx.get(), out + produced, capacity - produced, frame.data() + at, next);
    if (ZSTD_isError(got)) return std::nullopt;
    produced += got;
    at += next;
  }
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

WholeBundle& WholeBundle::operator=(WholeBundle&& o) noexcept {
  std::swap(memory_, o.memory_);
  std::swap(data_, o.data_);
  std::swap(size_, o.size_);
  std::swap(set_, o.set_);
  return *this;
}

WholeBundle::~WholeBundle() {
  if (memory_)
    memory_->Free(data_);
  else
    std::free(data_);
}

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
                       uint64_t max_output, DecodeMemory* memory,
                       const std::function<bool(uint64_t, std::string_view)>& sink, DecodeResult* result,
                       std::string* error, WholeBundle* whole) {
  *result = {};
  if (header.method == 1)
    return DecodeZstd(payload, whole_payload, max_output, memory, sink, result, error, whole);
  return DecodeZlib(payload, whole_payload, max_output, sink, result, error);
}

bool DecodeCcobPrefix(const CcobHeader& header, std::string_view payload, bool whole_payload,
                      uint64_t max_output, DecodeMemory* memory, const PrefixNeed& need, DecodeResult* result,
                      WholeBundle* prefix) {
  *result = {};
  ZSTD_frameHeader fh;
  if (header.method != 1) return false;
  std::optional<size_t> frame = PrefixFrameSize(payload, whole_payload, max_output, &fh);
  if (!frame) return false;
  const uint64_t content = fh.frameContentSize;
  uint64_t wanted = 0;
  for (uint64_t room = std::min(content, kFirstPrefixRoom);; room = std::min(content, room * 2)) {
    // Room for one more block past what is wanted, so that a block is never cut.
    const uint64_t capacity = std::min(content, std::max(room, wanted) + fh.blockSizeMax);
    // No more than the whole decode would hold: entries far apart in a large bundle (many
    // processors' code objects in one frame) stream through a window of the cap instead.
    if (capacity > (uint64_t(1) << kZstdWindowLogMax)) return false;
    char* data =
        static_cast<char*>(memory ? memory->Allocate(capacity) : std::malloc(capacity ? capacity : 1));
    if (!data) return false;
    WholeBundle bytes(memory, data, capacity);
    bool done = false;
    std::optional<uint64_t> got =
        DecodeBlocksInto(payload.substr(0, *frame), fh, data, capacity, need, &wanted, &done);
    if (!got) return false;  // the whole decode names what is wrong
    if (!done) continue;
    result->consumed = *frame;
    result->produced = content;
    bytes.Truncate(*got);
    *prefix = std::move(bytes);
    return true;
  }
}

}  // namespace rocm_audit
