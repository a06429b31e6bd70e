#include "audit/inspect/provider_index.h"

#include <llvm/Support/MemoryBuffer.h>

namespace rocm_audit {

SymbolIndex BuildProviderIndex(const std::vector<Boxed<InspectedFile>>& files,
                               const std::vector<Boxed<LoadFacts>>& loads, const LoaderConfig& loader) {
  std::unordered_set<std::string> wanted;
  for (const auto& load : loads)
    if (load)
      for (const UndefinedSymbol& u : load->binding.undefined) wanted.emplace(u.name);
  SymbolIndex index(std::move(wanted));
  if (index.empty()) return index;
  for (const Boxed<InspectedFile>& kept : files) {
    if (!kept || !ReadAfterItsChecks(*kept)) continue;
    const InspectedFile& f = *kept;
    std::string shown = loader.fs.DisplayPath(f.walked.path);
    if (f.model() && f.model()->has_dynamic) {
      index.AddElf(shown, *f.model());
    } else if (f.archive) {
      const llvm::MemoryBuffer& a = *f.archive;
      std::string ignored;  // a member that breaks here broke validation too: reported there
      index.AddArchive(shown, std::string_view(a.getBufferStart(), a.getBufferSize()), &ignored);
    }
  }
  return index;
}

}  // namespace rocm_audit
