// The static-library member walk: the ar header chain (GNU and BSD long names, thin
// archives) and the symbol index of every member object.
#include <cstdint>
#include <string>
#include <string_view>

#include "audit/elf/archive_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace rocm_audit;
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  std::string error;
  size_t members = 0, sink = 0;
  ValidateArchive(bytes, &members, &error);
  ForEachArchiveMember(
      bytes, [&](std::string_view name, std::string_view member) { sink += name.size() + member.size(); },
      &error);
  ForEachArchiveDefinition(
      bytes, [&](std::string_view symbol, std::string_view member) { sink += symbol.size() + member.size(); },
      &error);
  return sink == SIZE_MAX;
}
