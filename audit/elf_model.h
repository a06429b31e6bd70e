// One class- and endian-neutral model of what the loader reads from an ELF file: header,
// dynamic section, dynamic symbols and symbol versions. Strings point into the mapped
// file, which the model keeps alive.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace llvm { class MemoryBuffer; }

namespace rocm_audit {

struct DynamicSymbol {
  std::string_view name;
  uint64_t value = 0;
  uint16_t section_index = 0;  ///< st_shndx
  uint8_t type = 0;            ///< STT_*
  uint8_t binding = 0;         ///< STB_*
  uint8_t visibility = 0;      ///< STV_*
  uint16_t version_index = 0;  ///< .gnu.version entry with the hidden bit masked off
  bool version_hidden = false; ///< .gnu.version bit 15: a non-default (sym@VER) version
  bool has_version = false;    ///< the object has a .gnu.version table at all

  bool defined() const { return section_index != 0; }
};

/// A version this object requires from a library (one DT_VERNEED auxiliary entry).
struct NeededVersion {
  std::string library;  ///< vn_file: the soname the version must come from
  std::string version;  ///< vna_name, e.g. GLIBCXX_3.4.32
  uint16_t index = 0;   ///< vna_other: the .gnu.version index undefined symbols use
  bool weak = false;    ///< VER_FLG_WEAK: the loader only warns
};

struct ElfModel {
  std::string path;  ///< where the walk or the loader found it (not canonicalised)

  // Header.
  uint8_t elf_class = 0;  ///< 1 = ELFCLASS32, 2 = ELFCLASS64
  bool little_endian = true;
  uint8_t os_abi = 0;
  uint16_t type = 0;     ///< ET_*
  uint16_t machine = 0;  ///< EM_*
  uint32_t flags = 0;    ///< e_flags
  bool has_interpreter = false;

  // Dynamic section (empty for static or relocatable files).
  bool has_dynamic = false;
  std::string soname;
  std::vector<std::string> needed;
  std::vector<std::string> rpath;    ///< DT_RPATH split on ':'; cleared when DT_RUNPATH exists, as ld.so does
  std::vector<std::string> runpath;  ///< DT_RUNPATH split on ':'
  bool has_runpath = false;
  bool nodeflib = false;             ///< DF_1_NODEFLIB

  // Dynamic symbols, index 0 excluded.
  std::vector<DynamicSymbol> symbols;
  bool has_version_table = false;
  /// Version name by .gnu.version index, from both DT_VERDEF and DT_VERNEED.
  std::unordered_map<uint16_t, std::string> version_names;
  std::vector<std::string> defined_versions;  ///< DT_VERDEF names (base name excluded)
  bool has_version_definitions = false;
  std::vector<NeededVersion> needed_versions;

  /// Problems that did not stop parsing (e.g. a corrupt version table): reported as notes.
  std::vector<std::string> warnings;

  std::shared_ptr<llvm::MemoryBuffer> buffer;

  bool is_executable() const { return has_interpreter || type == 2 /*ET_EXEC*/; }
  bool is_shared_object() const { return type == 3 /*ET_DYN*/; }
  std::string_view kind_name() const;
  std::string_view machine_name() const;

  /// Definitions the loader may bind to, keyed by name: built once, on first use, then
  /// shared by every lookup in the run (one hash table per object, as ld.so has).
  const std::unordered_multimap<std::string_view, uint32_t>& definitions() const;

 private:
  mutable std::once_flag definitions_once_;
  mutable std::unordered_multimap<std::string_view, uint32_t> definitions_;
};

}  // namespace rocm_audit
