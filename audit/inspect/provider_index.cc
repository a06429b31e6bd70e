#include "audit/inspect/provider_index.h"

#include <llvm/Support/MemoryBuffer.h>

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <new>
#include <set>

#include "audit/elf/object_store.h"

namespace rocm_audit {
namespace {

// The base's libraries read for symbols no audited file defines: the shared objects of the
// directories ld.so searches (ld.so.conf's, then its built-in ones, elf/dl-load.c), at most
// this many files of at most this many bytes, each parsed once and let go: an underlinked
// library (cos without -lm) is told which library of the base defines the symbol.
constexpr size_t kMaxBaseLibraries = 4096;
constexpr off_t kMaxBaseLibraryBytes = off_t(512) << 20;
constexpr size_t kMaxBaseSymbols = 1024;

bool LooksLikeSharedObject(std::string_view name) {
  return name.starts_with("lib") && (name.ends_with(".so") || name.find(".so.") != std::string_view::npos);
}

// The directories ld.so would search for the libraries of the files that leave `wanted`
// undefined: the configured ones, then each such main object's built-in ones.
std::vector<std::string> BaseDirectories(const std::vector<Boxed<LoadFacts>>& loads,
                                         const LoaderConfig& loader) {
  std::vector<std::string> dirs = loader.conf_dirs;
  std::set<std::pair<uint8_t, uint16_t>> seen;
  for (const auto& load : loads) {
    if (!load || load->binding.undefined.empty() || load->closure.objects.empty()) continue;
    const ElfModel* main = load->closure.objects.front().model;
    if (!main || !seen.insert({main->elf_class, main->machine}).second) continue;
    for (std::string& d :
         DefaultDirectoriesFor(*main, ObjectIdentity{main->elf_class, main->machine}, loader))
      if (std::find(dirs.begin(), dirs.end(), d) == dirs.end()) dirs.push_back(std::move(d));
  }
  return dirs;
}

// Adds the base's providers of the symbols no audited file defines, until each has one.
void AddBaseProviders(const std::unordered_set<std::string>& wanted,
                      const std::vector<Boxed<LoadFacts>>& loads, const LoaderConfig& loader,
                      SymbolIndex* index) {
  std::vector<std::string> left;
  for (const std::string& name : wanted)
    if (index->Providers(name).empty()) left.push_back(name);
  // A crafted file leaves 20,000 names undefined; each is looked up in each library read.
  std::sort(left.begin(), left.end());
  if (left.size() > kMaxBaseSymbols) left.resize(kMaxBaseSymbols);
  if (left.empty()) return;
  std::set<std::string> read;
  std::vector<std::string> layers = loader.fs.layers();
  if (layers.empty()) layers = {"/"};  // --root / is the host itself: RootedFs keeps no layer
  for (const std::string& dir : BaseDirectories(loads, loader)) {
    // The directory as the installed system shows it: every layer's entries, each name then
    // resolved through the layers (the top one that has it, hidden files not shown).
    std::set<std::string> names;
    for (const std::string& layer : layers)
      if (DIR* d = opendir(((layer == "/" ? "" : layer) + dir).c_str())) {
        while (dirent* e = readdir(d))
          if (LooksLikeSharedObject(e->d_name)) names.insert(e->d_name);
        closedir(d);
      }
    for (const std::string& name : names) {
      const std::string installed = dir + "/" + name;
      std::optional<std::string> real = loader.fs.Resolve(loader.fs.HostPath(installed));
      struct stat st;
      if (!real || stat(real->c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
          st.st_size > kMaxBaseLibraryBytes || !read.insert(*real).second)
        continue;
      if (read.size() > kMaxBaseLibraries) return;
      ObjectStore store;
      std::shared_ptr<const StoredObject> stored = store.Get(*real, installed);
      if (!stored->model || !stored->model->has_dynamic) continue;
      // Only symbols nothing audited defines: an audited provider is the one to name.
      std::erase_if(left, [&](const std::string& symbol) {
        bool defines = false;
        stored->model->ForEachDefinition(symbol, [&](uint32_t) { defines = true; });
        if (defines) index->AddProvider(symbol, installed);
        return defines;
      });
      if (left.empty()) return;
    }
  }
}

}  // namespace

SymbolIndex BuildProviderIndex(const std::vector<Boxed<InspectedFile>>& files,
                               const std::vector<Boxed<LoadFacts>>& loads, const LoaderConfig& loader,
                               bool read_base) {
  std::unordered_set<std::string> wanted;
  for (const auto& load : loads)
    if (load)
      for (const UndefinedSymbol& u : load->binding.undefined) wanted.emplace(u.name);
  SymbolIndex index(wanted);
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
  // Only a run given the system it is installed in reads it: reading every library of the
  // host for a tree audited on its own would cost each such run most of a second (4,216
  // files in Debian 12's /usr/lib/x86_64-linux-gnu: 0.8 s for a symbol defined nowhere).
  if (read_base) try {
      AddBaseProviders(wanted, loads, loader, &index);
    } catch (const std::bad_alloc&) {}
  return index;
}

}  // namespace rocm_audit
