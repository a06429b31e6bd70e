// An xz stream decoded with liblzma's multi-threaded decoder: dpkg-deb (1.21 on) and xz -T
// write a .deb's data.tar.xz as independent blocks with their sizes in the block headers,
// which the decoder decodes on several threads at once; libarchive's own xz filter decodes
// on one. A single-block stream is decoded on one thread, as by any decoder.
#pragma once

#include <lzma.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace rocm_audit {

class XzStream {
 public:
  /// `read` fills a buffer with the next compressed bytes: the count, 0 at the end, < 0 on
  /// an error of the source.
  using Source = std::function<long(unsigned char* buf, size_t size)>;
  XzStream(Source read, unsigned threads);
  ~XzStream();
  XzStream(const XzStream&) = delete;
  XzStream& operator=(const XzStream&) = delete;

  /// Decodes up to `size` bytes into `out`: the count, 0 at the end of the stream, -1 on an
  /// error (error() says which). Concatenated streams are decoded as one, as xz does.
  long Read(unsigned char* out, size_t size);
  const std::string& error() const { return error_; }

 private:
  Source read_;
  lzma_stream stream_ = LZMA_STREAM_INIT;
  unsigned char in_[1 << 16];
  bool input_done_ = false, ended_ = false;
  std::string error_;
};

}  // namespace rocm_audit
