// Static archives and ELF relocatable objects made byte by byte for the archive reader's
// tests: GNU ar's layout (the "/" or "/SYM64/" symbol table, the "//" long-name table, each
// name ending "/\n"), thin archives, and ELF objects of either class and byte order whose
// .symtab defines, leaves undefined or keeps local the names asked for.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rocm_audit::testing {

struct ElfObjectSpec {
  std::vector<std::string> defined;    ///< STB_GLOBAL, in section 1
  std::vector<std::string> weak;       ///< STB_WEAK, in section 1
  std::vector<std::string> undefined;  ///< STB_GLOBAL, SHN_UNDEF
  std::vector<std::string> local;      ///< STB_LOCAL, in section 1
  bool elf64 = true;
  bool little = true;
  uint16_t machine = 62;        ///< EM_X86_64
  bool extended_shnum = false;  ///< e_shnum 0, the count in section 0's sh_size
};

/// An ET_REL object: sections null, .strtab, .symtab (linking .strtab).
std::string ElfObject(const ElfObjectSpec& spec);
/// Where ElfObject put the symbol table's section header and its entries, for tests that lie.
struct ElfObjectLayout {
  uint64_t shoff, symtab_header, symbols;
};
ElfObjectLayout LayoutOf(const ElfObjectSpec& spec);

class ArBuilder {
 public:
  static constexpr uint64_t kPastTheEnd = ~uint64_t(0);
  static constexpr uint64_t kInsideAMember = ~uint64_t(0) - 1;

  explicit ArBuilder(bool thin = false) : thin_(thin) {}

  void Add(std::string name, std::string data);
  /// A thin archive's member: its path (in the // table) and the size of the file it names.
  void AddThin(std::string path, uint64_t size);
  /// A symbol table of (name, member index, or kPastTheEnd / kInsideAMember) entries;
  /// `claimed_count` replaces the count written.
  void SymbolTable(std::vector<std::pair<std::string, uint64_t>> entries, bool sym64,
                   std::optional<uint64_t> claimed_count = std::nullopt);

  std::string Bytes();
  /// After Bytes(): where member i's header, and the // table's header, start.
  uint64_t HeaderOffset(size_t i) const { return headers_.at(i); }
  uint64_t NameTableOffset() const { return name_table_at_; }
  uint64_t NameTableSize() const { return name_table_size_; }

  /// Overwrites `width` bytes at header + start with `text`, padded with spaces.
  static void SetField(std::string* bytes, uint64_t header, size_t start, size_t width,
                       const std::string& text);

 private:
  struct Member {
    std::string name, data;
    uint64_t size;
  };
  bool thin_;
  std::vector<Member> members_;
  std::vector<std::pair<std::string, uint64_t>> symbols_;
  bool sym64_ = false, has_symbols_ = false;
  std::optional<uint64_t> claimed_count_;
  std::vector<uint64_t> headers_;
  uint64_t name_table_at_ = 0, name_table_size_ = 0;
};

}  // namespace rocm_audit::testing
