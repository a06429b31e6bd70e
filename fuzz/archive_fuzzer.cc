// The static-library member walk: the ar header chain (GNU and BSD long names, thin
// archives), the GNU symbol table's check, and the symbols of every ELF member.
#include <cstdint>
#include <string>
#include <string_view>

#include "audit/elf/archive_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace rocm_audit;
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  std::string error;
  size_t sink = 0;
  ArchiveSummary summary;
  (void)ValidateArchive(bytes, &summary, &error);
  (void)ForEachArchiveMember(
      bytes, [&](std::string_view name, std::string_view member) { sink += name.size() + member.size(); },
      &error);
  (void)ForEachArchiveDefinition(
      bytes, [&](std::string_view symbol, std::string_view member) { sink += symbol.size() + member.size(); },
      &error);
  return sink == SIZE_MAX;
}
