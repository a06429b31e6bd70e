// What `ldd -r` reports for one object, computed instead of run: each undefined dynamic
// symbol it relocates is looked up over its closure's global scope (symbol_scope.h), and
// ld.so's version check (_dl_check_map_versions) runs over its DT_VERNEED entries. A
// symbol is counted once, under the cause a packager can fix: a missing version, an
// unresolved library, or no definition at all.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "audit/elf/elf_model.h"
#include "audit/loader/closure.h"

namespace rocm_audit {

/// A relocated symbol no object of the scope defines. Names are views into the mapping of
/// the file the binding is of (ElfModel's names), which lives as long as its LoadFacts: 20,000
/// symbols named by the suffixes of one 1 MiB string cost that string, not 10 GB of copies.
struct UndefinedSymbol {
  std::string_view name;
  std::string_view version;  ///< "" for an unversioned reference
};

/// A non-weak DT_VERNEED version the resolved library does not define: fatal in ld.so.
struct MissingVersion {
  std::string_view library;  ///< vn_file, the DT_NEEDED name
  std::string_view version;
  std::string resolved_path;              ///< host path of the library the loader found
  int library_index = -1;                 ///< into LoadClosure::objects
  std::vector<std::string_view> symbols;  ///< this object's references that need it
};

struct SymbolBinding {
  size_t scope_size = 0;                         ///< objects in the global scope
  size_t bound_by_host = 0;                      ///< a plugin's symbols only its host's scope defines
  std::vector<UndefinedSymbol> undefined;        ///< in .dynsym order, each (name, version) once
  std::vector<MissingVersion> missing_versions;  ///< in DT_VERNEED order
  /// Symbols left unbound because a library is unresolved, by that library's DT_NEEDED
  /// name: the one a versioned reference names, else the first unresolved direct
  /// dependency, else the first unresolved one.
  std::map<std::string, std::vector<std::string_view>> behind_unresolved;
};

/// `host_scope`: for a plugin, its host program and the host's closure, which ld.so
/// searches before the plugin's own closure (a dlopen()ed object's lookup scope is the
/// main program's global scope followed by its own); null for anything else.
SymbolBinding BindSymbols(const ElfModel& model, const LoadClosure& closure,
                          const std::vector<const ElfModel*>* host_scope = nullptr);

}  // namespace rocm_audit
