// The ELF views: header, program headers, the dynamic section and its strings, dynamic
// symbols with their versions, the hash tables, relocations, version definitions and needs,
// notes. Everything the model offers is read back, as the checks would read it.
#include <llvm/Support/MemoryBuffer.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "audit/elf/elf_model.h"
#include "audit/elf/elf_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace rocm_audit;
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  ElfIdentity identity;
  std::string error;
  (void)ReadElfIdentity(bytes, &identity, &error);
  // A copy the model may keep (the real audit keeps its mapping alive the same way).
  std::shared_ptr<llvm::MemoryBuffer> buffer = llvm::MemoryBuffer::getMemBufferCopy(bytes, "fuzz");
  ElfModel model;
  if (!ReadElf(buffer, "fuzz", &model, &error)) return 0;
  size_t sink = model.kind_name().size() + model.machine_name().size() + model.interpreter.size();
  for (std::string_view n : model.needed) sink += n.size();
  for (const auto& v : model.needed_versions) sink += v.library.size() + v.version.size();
  for (const auto& [index, name] : model.version_names) sink += index + name.size();
  if (model.symbol_table) {
    std::vector<bool> relocated = model.symbol_table->RelocatedSymbols();
    sink += relocated.size();
    uint32_t count = model.symbol_count();
    for (uint32_t i = 0; i < count && i < 4096; ++i) {
      DynamicSymbol s = model.SymbolAt(i);
      std::string_view name = model.NameOf(s);
      // The hash table lookup ld.so would do for the name.
      model.ForEachDefinition(name, [&](uint32_t found) { sink += found; });
    }
  }
  return sink == SIZE_MAX;
}
