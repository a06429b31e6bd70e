// Offload bundles read from a byte range by their length fields: the plain bundle's entry
// table, the CCOB header (v1-v3) and its zstd or zlib stream, with a small decompression cap,
// and each entry's code-object header and notes.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "audit/gpu/bundle_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace rocm_audit;
  if (size < 1) return 0;
  // The first byte picks the options; the rest is the byte range.
  BundleReadOptions options;
  options.max_decompressed = uint64_t(64) << (data[0] & 15);  // 64 B .. 2 MiB
  options.verify_hash = data[0] & 16;
  std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::vector<Bundle> bundles;
  std::vector<BundleProblem> problems;
  ReadBundleSequence(bytes, BundleContainer{".hip_fatbin", "", 0}, options, &bundles, &problems);
  size_t sink = problems.size();
  for (const Bundle& b : bundles) sink += b.entries.size() + b.problems.size();
  return sink == SIZE_MAX;
}
