#include "audit/loader/symbol_index.h"

#include "audit/elf/archive_reader.h"

namespace rocm_audit {

void SymbolIndex::AddElf(const std::string& path, const ElfModel& model) {
  for (const std::string& name : wanted_) {
    bool defines = false;
    model.ForEachDefinition(name, [&](uint32_t) { defines = true; });
    if (defines) providers_[name].push_back({path, ""});
  }
}

bool SymbolIndex::AddArchive(const std::string& path, std::string_view bytes, std::string* error) {
  return ForEachArchiveDefinition(
      bytes,
      [&](std::string_view symbol, std::string_view member) {
        auto it = wanted_.find(std::string(symbol));
        if (it == wanted_.end()) return;
        auto& list = providers_[*it];
        SymbolProvider p{path, std::string(member)};
        for (const auto& q : list)
          if (q.file == p.file && q.member == p.member) return;  // armap lists duplicates
        list.push_back(std::move(p));
      },
      error);
}

const std::vector<SymbolProvider>& SymbolIndex::Providers(std::string_view name) const {
  static const std::vector<SymbolProvider> kNone;
  auto it = providers_.find(std::string(name));
  return it == providers_.end() ? kNone : it->second;
}

}  // namespace rocm_audit
