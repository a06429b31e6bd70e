// The `.llvm.offloading` section of the new offload driver: LLVM OffloadBinary records
// back to back, each with a string table and an image.
#include <cstdint>
#include <string>
#include <string_view>

#include "audit/gpu/offload_binary.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace rocm_audit;
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  Bundle b = ReadOffloadSection(bytes, BundleContainer{".llvm.offloading", "", 0});
  return b.entries.size() == SIZE_MAX;
}
