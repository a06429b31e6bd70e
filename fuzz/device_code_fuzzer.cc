// Device code wherever a file carries it: .hip_fatbin and __CLANG_OFFLOAD_BUNDLE__ sections
// of ELF files, .hipFatBinSegment wrappers, .llvm.offloading, archive members, standalone
// bundles and CCOBs, bare code objects. The kind comes from the bytes, as the walk decides
// it. Decompression is capped at 1 MiB per bundle, so that a bomb is a finding quickly.
#include <cstdint>
#include <string>
#include <string_view>

#include "audit/fs/file_kind.h"
#include "audit/gpu/device_code.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace rocm_audit;
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  BundleReadOptions options;
  options.max_decompressed = 1 << 20;
  options.verify_hash = true;
  FileKind kind = ClassifyFile("fuzz", bytes.substr(0, 64));
  DeviceInventory inventory = FindDeviceCode(kind, bytes, options);
  size_t sink = inventory.Offers().size() + inventory.problems.size();
  for (const Bundle& b : inventory.bundles) sink += b.entries.size() + b.problems.size();
  return sink == SIZE_MAX;
}
