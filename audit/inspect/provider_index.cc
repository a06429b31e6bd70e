#include "audit/inspect/provider_index.h"

#include <llvm/Support/MemoryBuffer.h>

#include <new>

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
      // An archive here passed ValidateArchive when it was read, and its findings are made;
      // its ELF members' symbols are read in place (archive_reader.h), so what this costs is
      // the providers found. Memory that runs out all the same leaves this archive out of
      // the hints, never the run.
      std::string ignored;
      try {
        (void)index.AddArchive(shown, std::string_view(a.getBufferStart(), a.getBufferSize()), &ignored);
      } catch (const std::bad_alloc&) {}
    }
  }
  return index;
}

}  // namespace rocm_audit
