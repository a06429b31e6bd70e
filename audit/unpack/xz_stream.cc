#include "audit/unpack/xz_stream.h"

namespace rocm_audit {
namespace {

// Memory the threads may take before the decoder falls back to one thread (the blocks a
// thread holds are as large as the encoder made them: dpkg-deb's are a few tens of MiB).
constexpr uint64_t kThreadingMemory = uint64_t(1) << 30;

std::string LzmaError(lzma_ret r) {
  switch (r) {
    case LZMA_MEM_ERROR: return "out of memory";
    case LZMA_MEMLIMIT_ERROR: return "needs more memory than allowed";
    case LZMA_FORMAT_ERROR: return "not an xz stream";
    case LZMA_OPTIONS_ERROR: return "unsupported xz options";
    case LZMA_DATA_ERROR: return "corrupt xz data";
    case LZMA_BUF_ERROR: return "truncated xz data";
    default: return "xz decoder error " + std::to_string(int(r));
  }
}

}  // namespace

XzStream::XzStream(Source read, unsigned threads) : read_(std::move(read)) {
  lzma_mt mt{};
  mt.flags = LZMA_CONCATENATED;
  mt.threads = threads ? threads : 1;
  mt.memlimit_threading = kThreadingMemory;
  mt.memlimit_stop = UINT64_MAX;  // what libarchive allows its single-threaded decoder
  if (lzma_ret r = lzma_stream_decoder_mt(&stream_, &mt); r != LZMA_OK) error_ = LzmaError(r);
}

XzStream::~XzStream() { lzma_end(&stream_); }

long XzStream::Read(unsigned char* out, size_t size) {
  if (!error_.empty()) return -1;
  if (ended_ || size == 0) return 0;
  stream_.next_out = out;
  stream_.avail_out = size;
  // The decoder may take input without giving output (headers, a block being decoded on a
  // thread): fed until it gives some, or ends.
  while (stream_.avail_out == size) {
    if (stream_.avail_in == 0 && !input_done_) {
      long n = read_(in_, sizeof in_);
      if (n < 0) {
        error_ = "the compressed data cannot be read";
        return -1;
      }
      if (n == 0) input_done_ = true;
      stream_.next_in = in_;
      stream_.avail_in = size_t(n);
    }
    lzma_ret r = lzma_code(&stream_, input_done_ ? LZMA_FINISH : LZMA_RUN);
    if (r == LZMA_STREAM_END) {
      ended_ = true;
      break;
    }
    if (r != LZMA_OK) {
      error_ = LzmaError(r);
      return -1;
    }
  }
  return long(size - stream_.avail_out);
}

}  // namespace rocm_audit
