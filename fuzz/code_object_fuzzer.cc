// An AMDGPU code object's header, program headers and notes (the target ID, code object
// version, kernel count from the msgpack metadata), read from a prefix as a streamed entry is.
#include <cstdint>
#include <string>
#include <string_view>

#include "audit/gpu/code_object.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace rocm_audit;
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  uint64_t needed = CodeObjectPrefixNeeded(bytes);
  CodeObjectInfo info;
  std::string error;
  // As the streamed reader does: the prefix it asked for (or what there is), of the whole.
  std::string_view prefix = bytes.substr(0, needed ? needed : bytes.size());
  if (InspectCodeObject(prefix, bytes.size(), &info, &error)) info.target_id();
  // And a size that claims more than the bytes hold: only that it returns matters here.
  (void)InspectCodeObject(bytes, uint64_t(bytes.size()) * 2 + 1, &info, &error);
  return 0;
}
