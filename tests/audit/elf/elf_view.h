// What an ELF reader reads of a file's dynamic section, dynamic symbols and symbol versions,
// in one reader-neutral form, so that three readers can be compared item by item:
// rocm-audit's ElfModel, LIEF 0.9 (lief_oracle_test.cc) and GNU readelf's output
// (readelf_view.h). Values are kept as the strings a difference report prints.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "audit/elf/elf_model.h"

namespace rocm_audit {

struct ElfView {
  struct Symbol {
    std::string name;
    int binding = 0;
    int visibility = 0;
    int section_index = 0;  ///< st_shndx
    bool has_version = false;
    int version_index = 0;  ///< .gnu.version entry without the hidden bit
    bool version_hidden = false;
    std::string version;  ///< the version's name; "" for indexes 0 and 1 (local, global)
  };
  std::vector<std::string> needed;
  std::string soname;
  bool has_runpath = false;
  std::vector<std::string> runpath;
  std::vector<std::string> rpath;             ///< only when there is no DT_RUNPATH (ld.so ignores it then)
  std::vector<Symbol> symbols;                ///< .dynsym order, entry 0 included
  std::vector<std::string> defined_versions;  ///< DT_VERDEF names, the VER_FLG_BASE entry excluded
  std::vector<std::string> needed_versions;   ///< DT_VERNEED as "file:version"
  /// DT_VERDEF by index: its name, then the names of its further auxiliary entries (the
  /// parents). Not compared (rocm-audit keeps only the name); the referee's evidence.
  std::map<int, std::vector<std::string>> verdef_chains;
};

/// One point where two readers disagree. `symbol` is the .dynsym index for the per-symbol
/// kinds, -1 otherwise; `ours` is rocm-audit's value, `theirs` the other reader's.
struct Difference {
  std::string path;
  std::string kind;
  int64_t symbol = -1;
  std::string ours;
  std::string theirs;
};

/// The model as a view (ElfModel keeps no verdef parents: verdef_chains holds names only).
ElfView ViewOf(const ElfModel& model);

/// Every item where `theirs` differs from `ours`. Kinds: DT_NEEDED, DT_SONAME, DT_RUNPATH,
/// DT_RPATH, symbol count, then per symbol both readers have: symbol name, symbol binding,
/// symbol visibility, symbol section index, symbol has version, symbol version index,
/// symbol version hidden, symbol version name; then VERDEF and VERNEED.
std::vector<Difference> Diff(const std::string& path, const ElfView& ours, const ElfView& theirs);

/// A DT_RPATH/DT_RUNPATH string split as ld.so splits it: on every ':', empty parts kept.
std::vector<std::string> SplitSearchPath(const std::string& list);
std::string Join(const std::vector<std::string>& parts);

}  // namespace rocm_audit
