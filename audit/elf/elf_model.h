// One class- and endian-neutral model of what the loader reads from an ELF file: header,
// dynamic section, dynamic symbols and symbol versions. Strings point into the mapped
// file, which the model keeps alive.
#pragma once

#include <llvm/ADT/STLFunctionalExtras.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace llvm {
class MemoryBuffer;
}

namespace rocm_audit {

struct DynamicSymbol {
  uint32_t name_offset = 0;  ///< st_name: into the dynamic string table (see ElfModel::NameOf)
  uint64_t value = 0;
  uint16_t section_index = 0;   ///< st_shndx
  uint8_t type = 0;             ///< STT_*
  uint8_t binding = 0;          ///< STB_*
  uint8_t visibility = 0;       ///< STV_*
  uint16_t version_index = 0;   ///< .gnu.version entry with the hidden bit masked off
  bool version_hidden = false;  ///< .gnu.version bit 15: a non-default (sym@VER) version
  bool has_version = false;     ///< the object has a .gnu.version table at all

  bool defined() const { return section_index != 0; }
};

/// The dynamic symbol table, read in place from the mapped file: decoding every entry into
/// a vector up front would write a copy of every symbol of every library, most of which no
/// lookup reads.
class SymbolTable {
 public:
  virtual ~SymbolTable() = default;
  virtual uint32_t size() const = 0;
  /// Entry `index` (< size()), version fields included.
  virtual DynamicSymbol At(uint32_t index) const = 0;
  /// For each symbol, whether a dynamic relocation references it. ld.so looks up only those:
  /// an undefined symbol without a relocation (GCC 13's _ZSt21ios_base_library_initv marker)
  /// is never reported by `ldd -r`. Empty when the object has no relocation sections to
  /// read (then every symbol counts as referenced).
  virtual std::vector<bool> RelocatedSymbols() const = 0;
};

/// A version this object requires from a library (one DT_VERNEED auxiliary entry). The
/// names are views into the mapped file, as every name of the model is.
struct NeededVersion {
  std::string_view library;  ///< vn_file: the soname the version must come from
  std::string_view version;  ///< vna_name, e.g. GLIBCXX_3.4.32
  uint16_t index = 0;        ///< vna_other: the .gnu.version index undefined symbols use
  bool weak = false;         ///< VER_FLG_WEAK: the loader only warns
};

struct ElfModel {
  std::string path;  ///< where the walk or the loader found it (not canonicalised)

  // Header.
  uint8_t elf_class = 0;  ///< 1 = ELFCLASS32, 2 = ELFCLASS64
  bool little_endian = true;
  uint8_t os_abi = 0;
  /// The system whose loader the file is for: from EI_OSABI, else from an ABI note in
  /// PT_NOTE (GNU's ABI tag, NetBSD's, FreeBSD's, OpenBSD's): "linux", "hurd", "solaris",
  /// "freebsd", "netbsd", "openbsd", ...; "" when neither says (most Linux libraries).
  std::string system;
  uint16_t type = 0;     ///< ET_*
  uint16_t machine = 0;  ///< EM_*
  uint32_t flags = 0;    ///< e_flags (the GPU processor, for AMDGPU code objects)
  bool has_interpreter = false;
  std::string interpreter;  ///< PT_INTERP, e.g. /lib64/ld-linux-x86-64.so.2 ("" when none or unreadable)

  /// A separate debug file (objcopy --only-keep-debug, what -dbgsym and debuginfo packages
  /// install under /usr/lib/debug): the program headers of the object it belongs to, its
  /// loaded sections SHT_NOBITS. ld.so refuses it; it has no dynamic table to read.
  bool separate_debug = false;

  // Dynamic section as ld.so reads it (empty for static or relocatable files).
  bool has_dynamic = false;
  std::string soname;
  /// DT_NEEDED, in order, each name once: views into `buffer`, so that a file whose entries
  /// all name one long string costs its size, not that size times the entries.
  std::vector<std::string_view> needed;
  std::vector<std::string> rpath;    ///< DT_RPATH split on ':'; cleared when DT_RUNPATH exists, as ld.so does
  std::vector<std::string> runpath;  ///< DT_RUNPATH split on ':'
  bool has_runpath = false;
  bool nodeflib = false;  ///< DF_1_NODEFLIB

  // Dynamic symbols, indexed like .dynsym (entry 0 is the null symbol).
  std::unique_ptr<SymbolTable> symbol_table;
  std::string_view dynamic_strings;  ///< the string table .dynsym names point into
  uint32_t symbol_count() const { return symbol_table ? symbol_table->size() : 0; }
  DynamicSymbol SymbolAt(uint32_t index) const { return symbol_table->At(index); }
  /// The indices of the undefined symbols (st_shndx SHN_UNDEF) but entry 0, ascending, as
  /// ReadElf found them; unset for a model made otherwise.
  std::optional<std::vector<uint32_t>> undefined_symbols;
  /// Calls `visit(index, symbol)` for each undefined symbol but entry 0, in index order. A
  /// large library's table is mostly definitions (libLLVM.so.21.1: 56,201 symbols, 577
  /// undefined): a pass over the imports reads the few entries they are, not the whole
  /// table, whose pages were given back once it was read.
  void ForEachUndefined(llvm::function_ref<void(uint32_t, const DynamicSymbol&)> visit) const;
  bool has_version_table = false;
  /// Version name by .gnu.version index, from both DT_VERDEF and DT_VERNEED. Version names
  /// are views into `buffer`, like DT_NEEDED: 4,096 entries naming one 1 MiB string cost
  /// the string once, not 4 GB of copies.
  std::unordered_map<uint16_t, std::string_view> version_names;
  std::vector<std::string_view> defined_versions;  ///< DT_VERDEF names (base name excluded)
  bool has_version_definitions = false;
  std::vector<NeededVersion> needed_versions;

  /// Problems that did not stop parsing (e.g. a corrupt version table): reported as notes.
  std::vector<std::string> warnings;

  std::shared_ptr<llvm::MemoryBuffer> buffer;
  /// Whether `buffer`'s pages stay mapped in for the run, counted once against the budget of
  /// small mappings (ReleaseResidentPagesUnlessSmall): a later release would only flush the
  /// TLB again for nothing the budget does not already bound. Also set for a GPU code
  /// object, whose mapping goes whole right after its own checks.
  bool pages_kept = false;

  std::string_view kind_name() const;
  std::string_view machine_name() const;

  /// The symbol's name; empty when st_name points outside the string table.
  std::string_view NameOf(const DynamicSymbol& s) const;

  /// The object's own symbol hash table (DT_GNU_HASH, else DT_HASH), which is how ld.so
  /// finds a name: only symbols it reaches are visible to the loader. Pointers into the
  /// mapped file; every range was checked against it when the model was read.
  struct HashTable {
    enum Kind { kNone, kGnu, kSysv } kind = kNone;
    const uint8_t* buckets = nullptr;
    uint32_t bucket_count = 0;
    const uint8_t* chains = nullptr;
    uint32_t chain_count = 0;
    uint32_t first_hashed = 0;  ///< GNU: symoffset, the first symbol the table covers
    /// GNU: the Bloom filter ld.so asks before the buckets (elf/dl-lookup.c, do_lookup_x):
    /// bloom_words words of the object's class, a power of two of them (_dl_setup_hash
    /// asserts it); null when there is none ld.so could use.
    const uint8_t* bloom = nullptr;
    uint32_t bloom_words = 0;
    uint32_t bloom_shift = 0;
    /// SysV: the bytes of one word of the table. 8 on 64-bit s390 and Alpha, whose ABIs make
    /// .hash of 64-bit entries (glibc's Elf_Symndx in their bits/elfclass.h, binutils'
    /// hash_entry_size 8 in elf64-s390.c and elf64-alpha.c); 4 everywhere else.
    uint8_t word_size = 4;
  } hash_table;

  /// A name to look up and its GNU hash, computed once for a lookup through a whole scope
  /// as ld.so computes it once per lookup (elf/dl-lookup.c, _dl_lookup_symbol_x), not once
  /// per object searched.
  struct LookupName {
    std::string_view name;
    uint32_t gnu_hash = 0;
  };
  static LookupName Lookup(std::string_view name);

  /// Calls `visit(index)` for each symbol named `name` that the loader may bind to
  /// (glibc's check_match: defined, an allowed type, global/weak/unique, not hidden). A
  /// function_ref, not a std::function: a lookup asks every object of a scope, and a
  /// std::function of a lambda holding more than two references allocates on each call.
  void ForEachDefinition(std::string_view name, llvm::function_ref<void(uint32_t)> visit) const;
  void ForEachDefinition(const LookupName& name, llvm::function_ref<void(uint32_t)> visit) const;

 private:
  bool Bindable(const DynamicSymbol& s) const;
  /// NameOf(s) == name, without measuring the whole string of a candidate first.
  bool NameIs(const DynamicSymbol& s, std::string_view name) const;
  /// Whether the GNU hash table's Bloom filter lets ld.so look for a name of hash `hash`.
  bool MayBeInBloom(uint32_t hash) const;
  // Objects without any hash table (rare; ld.so cannot look into them either, but then
  // they are not loadable): a map built on first use.
  // A long name is hashed by its length, head and tail, not whole: 20,000 names that are the
  // suffixes of one 1 MiB string (1.5 MB of file) are 10 GB to hash whole. Names that share
  // bytes in the string table are suffixes of one another and so differ in length; names of
  // one length have bytes of their own, so comparing the ones that share a hash reads no more
  // than the table.
  struct NameHash {
    size_t operator()(std::string_view name) const {
      constexpr size_t kEnds = 64;
      std::hash<std::string_view> h;
      if (name.size() <= 2 * kEnds) return h(name);
      return h(name.substr(0, kEnds)) ^ (h(name.substr(name.size() - kEnds)) * 31) ^ (name.size() * 1000003);
    }
  };
  mutable std::once_flag fallback_once_;
  mutable std::unordered_multimap<std::string_view, uint32_t, NameHash> fallback_;
};

}  // namespace rocm_audit
