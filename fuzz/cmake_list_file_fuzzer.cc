// The CMake list-file tokenizer: commands, quoted, bracket and unquoted arguments, comments
// of every form, line continuations.
#include <cstdint>
#include <string_view>

#include "audit/cmake/list_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace rocm_audit;
  ListFile file = ParseListFile(std::string_view(reinterpret_cast<const char*>(data), size));
  return file.commands.size() == SIZE_MAX;
}
