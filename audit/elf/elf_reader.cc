#include "audit/elf/elf_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <llvm/BinaryFormat/ELF.h>
#include <llvm/Object/ELF.h>
#include <llvm/Support/Endian.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>
#include <functional>
#include <optional>
#include <system_error>
#include <tuple>
#include <type_traits>
#include <unordered_set>

#include "audit/elf/elf_head_image.h"
#include "audit/elf/loader_view.h"
#include "audit/support/hex.h"

namespace rocm_audit {
namespace {

using llvm::object::ELFFile;

// Distinct DT_NEEDED names read from one file, all together: real libraries need a few
// dozen names of a few dozen bytes. Names past it are a note, never a stop.
constexpr uint64_t kMaxNeededBytes = uint64_t(4) << 20;

// The names of undefined dynamic symbols looked up for one file, all together: each costs
// its length in every lookup (hashing, comparing, reporting). A large C++ library imports a
// few MB of names; 20,000 symbols named by the suffixes of one 1 MiB string claim 10 GB.
// The references past it are a note, never a stop.
constexpr uint64_t kMaxUndefinedNameBytes = uint64_t(64) << 20;

std::atomic<uint64_t> g_relocation_scans{0};

std::string TakeMessage(llvm::Error err) { return llvm::toString(std::move(err)); }

std::vector<std::string> SplitPathList(std::string_view list) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= list.size()) {
    size_t colon = list.find(':', start);
    if (colon == std::string_view::npos) colon = list.size();
    out.emplace_back(list.substr(start, colon - start));
    start = colon + 1;
  }
  return out;
}

// A NUL-terminated string at `offset` inside `table`, or an error when it runs off the end.
bool StringAt(std::string_view table, uint64_t offset, std::string_view* out) {
  if (offset >= table.size()) return false;
  size_t end = table.find('\0', offset);
  if (end == std::string_view::npos) return false;
  *out = table.substr(offset, end - offset);
  return true;
}

// The model's symbol table over LLVM's typed, bounds-checked arrays of the mapped file.
template <class ELFT>
class LlvmSymbolTable : public SymbolTable {
 public:
  LlvmSymbolTable(llvm::ArrayRef<typename ELFT::Sym> symbols, llvm::ArrayRef<typename ELFT::Versym> versions,
                  std::vector<llvm::ArrayRef<typename ELFT::Rela>> relas,
                  std::vector<llvm::ArrayRef<typename ELFT::Rel>> rels, bool mips64el, uint32_t unnamed_from)
      : symbols_(symbols),
        versions_(versions),
        relas_(std::move(relas)),
        rels_(std::move(rels)),
        mips64el_(mips64el),
        unnamed_from_(unnamed_from) {}

  std::vector<bool> RelocatedSymbols() const override {
    std::vector<bool> out;
    if (relas_.empty() && rels_.empty()) return out;
    g_relocation_scans.fetch_add(1, std::memory_order_relaxed);
    out.assign(size(), false);
    auto mark = [&](uint32_t index) {
      if (index < out.size()) out[index] = true;
    };
    for (const auto& table : relas_)
      for (const auto& r : table) mark(r.getSymbol(mips64el_));
    for (const auto& table : rels_)
      for (const auto& r : table) mark(r.getSymbol(mips64el_));
    return out;
  }

  uint32_t size() const override {
    return static_cast<uint32_t>(std::min<size_t>(symbols_.size(), UINT32_MAX));
  }

  DynamicSymbol At(uint32_t i) const override {
    const auto& s = symbols_[i];
    DynamicSymbol out;
    // An undefined symbol past kMaxUndefinedNameBytes is nameless to the audit: never looked up.
    out.name_offset =
        i >= unnamed_from_ && s.st_shndx == llvm::ELF::SHN_UNDEF ? UINT32_MAX : uint32_t(s.st_name);
    out.value = s.st_value;
    out.section_index = s.st_shndx;
    out.type = s.getType();
    out.binding = s.getBinding();
    out.visibility = s.getVisibility();
    if (i < versions_.size()) {
      uint16_t v = versions_[i].vs_index;
      out.has_version = true;
      out.version_index = v & llvm::ELF::VERSYM_VERSION;
      out.version_hidden = (v & llvm::ELF::VERSYM_HIDDEN) != 0;
    }
    return out;
  }

 private:
  llvm::ArrayRef<typename ELFT::Sym> symbols_;
  llvm::ArrayRef<typename ELFT::Versym> versions_;
  std::vector<llvm::ArrayRef<typename ELFT::Rela>> relas_;
  std::vector<llvm::ArrayRef<typename ELFT::Rel>> rels_;
  bool mips64el_;
  uint32_t unnamed_from_;
};

template <class ELFT>
class Reader {
 public:
  Reader(const ELFFile<ELFT>& obj, std::string_view file, ElfModel* model)
      : obj_(obj), file_(file), model_(model) {}

  bool Read(std::string* error) {
    const auto& hdr = obj_.getHeader();
    model_->type = hdr.e_type;
    model_->machine = hdr.e_machine;
    model_->flags = hdr.e_flags;
    model_->os_abi = hdr.e_ident[llvm::ELF::EI_OSABI];

    auto phdrs = obj_.program_headers();
    if (!phdrs) return Fail(error, "program headers: " + TakeMessage(phdrs.takeError()));
    for (const auto& ph : *phdrs) {
      if (ph.p_type != llvm::ELF::PT_INTERP) continue;
      model_->has_interpreter = true;
      // The interpreter's path, NUL-terminated inside the segment; a segment past the end of
      // the file leaves it unknown (the object is still audited).
      std::string_view file(reinterpret_cast<const char*>(obj_.base()), obj_.getBufSize());
      if (ph.p_offset < file.size() && ph.p_filesz <= file.size() - ph.p_offset) {
        std::string_view text = file.substr(ph.p_offset, ph.p_filesz);
        model_->interpreter = std::string(text.substr(0, text.find('\0')));
      }
    }

    // ld.so never reads section headers: broken ones (a table past the end of the file,
    // e_shentsize 0) leave what it reads intact, and only what is found by section
    // (dynamic symbols, versions, device code) unread.
    auto sections = obj_.sections();
    if (sections)
      sections_ = *sections;
    else
      Warn("section headers cannot be read (" + TakeMessage(sections.takeError()) +
           "): ld.so does not read them, so the dependencies were read from the program headers; the "
           "dynamic symbols, versions and sections such as .hip_fatbin were not");
    // The loader never reads section names, but everything that finds device code by
    // section (.hip_fatbin) does: unreadable names hide it.
    if (!sections_.empty()) {
      if (auto names = obj_.getSectionStringTable(sections_); !names)
        Warn("section names cannot be read (" + TakeMessage(names.takeError()) +
             "): sections such as .hip_fatbin are not found");
    }

    model_->system = SystemOf(*phdrs);
    if (!ReadDynamic(error)) return false;
    if (!model_->separate_debug) ReadDynamicSymbols();
    return true;
  }

 private:
  using Elf_Shdr = typename ELFT::Shdr;
  using Elf_Versym = typename ELFT::Versym;

  // EI_OSABI when it names a system; else the first ABI note of a PT_NOTE segment. Linux
  // libraries usually carry neither (ELFOSABI_NONE, and .note.ABI-tag only in programs and
  // libc), the BSDs' crti.o puts their note in every object.
  std::string SystemOf(llvm::ArrayRef<typename ELFT::Phdr> phdrs) const {
    switch (model_->os_abi) {
      case llvm::ELF::ELFOSABI_GNU: return "linux";
      case llvm::ELF::ELFOSABI_HURD: return "hurd";
      case llvm::ELF::ELFOSABI_SOLARIS: return "solaris";
      case llvm::ELF::ELFOSABI_FREEBSD: return "freebsd";
      case llvm::ELF::ELFOSABI_NETBSD: return "netbsd";
      case llvm::ELF::ELFOSABI_OPENBSD: return "openbsd";
    }
    for (const auto& ph : phdrs) {
      if (ph.p_type != llvm::ELF::PT_NOTE) continue;
      // LLVM's notes() checks p_offset + p_filesz as a sum, which wraps (in a 32-bit file
      // 0xffffff00 + 0x200 passes as 0x100; in a 64-bit one 0x238 + 2^64-1 as 0x237) and the
      // iterator reads far past the buffer. Each is checked here against the size, no sum
      // made.
      const uint64_t size = obj_.getBufSize();
      if (uint64_t{ph.p_offset} > size || uint64_t{ph.p_filesz} > size - uint64_t{ph.p_offset}) continue;
      llvm::Error err = llvm::Error::success();
      std::string found;
      for (const auto& note : obj_.notes(ph, err)) {
        if (note.getType() != llvm::ELF::NT_GNU_ABI_TAG) continue;  // 1 for all of them
        llvm::StringRef name = note.getName();
        if (name == "NetBSD") found = "netbsd";
        if (name == "FreeBSD") found = "freebsd";
        if (name == "OpenBSD") found = "openbsd";
        auto desc = note.getDesc(std::max<size_t>(ph.p_align, 4));
        if (name == "GNU" && desc.size() >= 4) {
          static constexpr const char* kGnuOs[] = {"linux", "hurd", "solaris", "freebsd", "netbsd"};
          uint32_t os = model_->little_endian ? llvm::support::endian::read32le(desc.data())
                                              : llvm::support::endian::read32be(desc.data());
          if (os < std::size(kGnuOs)) found = kGnuOs[os];
        }
        if (!found.empty()) break;
      }
      llvm::consumeError(std::move(err));
      if (!found.empty()) return found;
    }
    return "";
  }

  bool Fail(std::string* error, std::string message) {
    *error = std::move(message);
    return false;
  }

  // The dynamic table as ld.so reads it (audit/elf/loader_view.h): PT_DYNAMIC's address
  // through the PT_LOAD segments, until DT_NULL, and its strings at DT_STRTAB + offset
  // wherever the segment holding DT_STRTAB has them. ld.so ignores DT_STRSZ, and so does the
  // reading here; a string past it is a note. A file without section headers still gets its
  // closure audited (its symbols, found through section headers, do not).
  bool ReadDynamic(std::string* error) {
    auto phdrs = obj_.program_headers();
    if (!phdrs) return Fail(error, "program headers: " + TakeMessage(phdrs.takeError()));
    phdrs_ = *phdrs;
    if (SeparateDebugFile()) {
      model_->separate_debug = true;
      return true;
    }
    LoaderDynamic<ELFT> dyn = ReadLoaderDynamic<ELFT>(phdrs_, file_);
    switch (dyn.status) {
      case LoaderDynamic<ELFT>::kNoDynamic: NoteSectionOnlyDynamic(); return true;
      case LoaderDynamic<ELFT>::kNoContent: return NoDynamicContent(dyn.segment, error);
      case LoaderDynamic<ELFT>::kBroken: return Fail(error, dyn.error);
      case LoaderDynamic<ELFT>::kRead: break;
    }
    model_->has_dynamic = true;
    for (std::string& note : dyn.notes) Warn(std::move(note));
    std::optional<uint64_t> strtab_addr;
    uint64_t strsz = UINT64_MAX;  // none: no string can pass it
    for (const auto& d : dyn.entries) {
      if (d.d_tag == llvm::ELF::DT_STRTAB) strtab_addr = d.getPtr();
      if (d.d_tag == llvm::ELF::DT_STRSZ) strsz = d.getVal();
      if (d.d_tag == llvm::ELF::DT_GNU_HASH) gnu_hash_addr_ = d.getPtr();
      if (d.d_tag == llvm::ELF::DT_HASH) sysv_hash_addr_ = d.getPtr();
      for (TableTag& t : table_tags_)
        if (d.d_tag == t.tag) t.addr = d.getPtr();
      if (d.d_tag == llvm::ELF::DT_FLAGS_1 && (d.getVal() & llvm::ELF::DF_1_NODEFLIB))
        model_->nodeflib = true;
    }
    return ReadDynamicStrings(dyn.entries, strtab_addr, strsz, error);
  }

  // A separate debug file: objcopy --only-keep-debug and eu-strip -f (every -dbgsym and
  // debuginfo package) keep the program headers and turn the loaded sections into
  // SHT_NOBITS. glibc recognises most by PT_DYNAMIC's p_filesz 0 and refuses them ("object
  // file has no dynamic section", elf/dl-load.c); older tools left p_filesz, over bytes that
  // are now debug sections, or past the end of the file. Read-only code in SHT_NOBITS says
  // it for all of them: no loadable object has its instructions there (PowerPC's BSS-PLT,
  // .plt as writable NOBITS, is filled by the loader, not read from the file).
  bool SeparateDebugFile() const {
    for (const Elf_Shdr& s : sections_)
      if (s.sh_type == llvm::ELF::SHT_NOBITS && (s.sh_flags & llvm::ELF::SHF_EXECINSTR) &&
          !(s.sh_flags & llvm::ELF::SHF_WRITE) && s.sh_size > 0)
        return true;
    return false;
  }

  // PT_DYNAMIC without bytes in the file, in a file that is no separate debug file: ld.so
  // refuses it, or would read past the end of the file.
  bool NoDynamicContent(const typename ELFT::Phdr* segment, std::string* error) {
    if (!segment)
      return Fail(error,
                  "PT_DYNAMIC has no bytes in the file (p_filesz 0) and the file is no separate debug "
                  "file: ld.so refuses it (\"object file has no dynamic section\")");
    return Fail(error, "the dynamic table at PT_DYNAMIC's address (" + Hex(segment->p_vaddr) +
                           ") has no bytes in the file: its PT_LOAD maps none there, or lies past the end");
  }

  // ld.so reads no section headers: a .dynamic section without PT_DYNAMIC gives the file
  // no dependencies (and an ET_DYN file ld.so refuses to load). Said, since readelf -d and
  // tools that read sections show a table there.
  void NoteSectionOnlyDynamic() {
    const Elf_Shdr* sec = FindSection(llvm::ELF::SHT_DYNAMIC);
    if (!sec || sec->sh_size == 0) return;
    Warn(std::string("a .dynamic section but no PT_DYNAMIC program header: ld.so reads no dynamic table, so "
                     "its DT_NEEDED entries are not dependencies") +
         (model_->type == llvm::ELF::ET_DYN ? " (and ld.so refuses to load it: \"object file has no dynamic "
                                              "section\")"
                                            : ""));
  }

  // DT_NEEDED, DT_SONAME, DT_RPATH and DT_RUNPATH, as views into the mapping. Repeated
  // DT_NEEDED names are kept once (ld.so loads a name once), and the distinct names are
  // read up to kMaxNeededBytes: memory follows the file, not how often it points at a string.
  bool ReadDynamicStrings(const std::vector<typename ELFT::Dyn>& entries, std::optional<uint64_t> strtab_addr,
                          uint64_t strsz, std::string* error) {
    MappedBytes strings;
    if (strtab_addr) strings = MapAddress<ELFT>(phdrs_, file_, *strtab_addr);
    std::string_view rpath, runpath;
    bool have_rpath = false, past_strsz = false;
    std::unordered_set<uint64_t> offsets;
    std::unordered_set<std::string_view> names;
    uint64_t repeats = 0, unread = 0, bytes = 0;
    for (const auto& d : entries) {
      int64_t tag = d.d_tag;
      if (tag != llvm::ELF::DT_NEEDED && tag != llvm::ELF::DT_SONAME && tag != llvm::ELF::DT_RPATH &&
          tag != llvm::ELF::DT_RUNPATH)
        continue;
      if (tag == llvm::ELF::DT_NEEDED && !offsets.insert(d.getVal()).second) {
        ++repeats;
        continue;
      }
      if (tag == llvm::ELF::DT_NEEDED && bytes > kMaxNeededBytes) {
        ++unread;
        continue;
      }
      std::string_view value;
      if (!strtab_addr) return Fail(error, "string entries in the dynamic table but no DT_STRTAB");
      if (!StringAt(strings.file, d.getVal(), &value))
        return Fail(error, "dynamic entry string offset " + std::to_string(d.getVal()) + " is outside the " +
                               "bytes the segment holding DT_STRTAB (" + Hex(*strtab_addr) + ") maps");
      past_strsz |= d.getVal() + value.size() >= strsz;
      switch (tag) {
        case llvm::ELF::DT_NEEDED:
          if (!names.insert(value).second) {
            ++repeats;
            break;
          }
          bytes += value.size();
          model_->needed.push_back(value);
          break;
        case llvm::ELF::DT_SONAME: model_->soname = std::string(value); break;
        case llvm::ELF::DT_RPATH:
          rpath = value;
          have_rpath = true;
          break;
        case llvm::ELF::DT_RUNPATH:
          runpath = value;
          model_->has_runpath = true;
          break;
      }
    }
    NoteDynamicStrings(past_strsz, strsz, repeats, unread);
    if (model_->has_runpath) model_->runpath = SplitPathList(runpath);
    // glibc (elf/get-dynamic-info.h): "If we have a DT_RUNPATH, ignore DT_RPATH".
    else if (have_rpath)
      model_->rpath = SplitPathList(rpath);
    return true;
  }

  void NoteDynamicStrings(bool past_strsz, uint64_t strsz, uint64_t repeats, uint64_t unread) {
    if (past_strsz)
      Warn("DT_STRSZ (" + std::to_string(strsz) +
           ") ends before strings the dynamic table names: read as ld.so reads them (it ignores DT_STRSZ)");
    if (repeats)
      Warn(std::to_string(repeats) + " DT_NEEDED " + (repeats == 1 ? "entry repeats" : "entries repeat") +
           " a name needed before: ld.so loads each name once");
    if (unread)
      Warn(std::to_string(unread) + " DT_NEEDED " + (unread == 1 ? "entry was" : "entries were") +
           " not read: the names before them pass rocm-audit's cap of " + std::to_string(kMaxNeededBytes) +
           " bytes of DT_NEEDED names per file");
  }

  const Elf_Shdr* FindSection(uint32_t type) const {
    for (const Elf_Shdr& s : sections_)
      if (s.sh_type == type) return &s;
    return nullptr;
  }

  // Symbols and versions are optional for the loader's first step; a broken table is
  // recorded as a warning and the file still audits as far as it can.
  void ReadDynamicSymbols() {
    const Elf_Shdr* dynsym = FindSection(llvm::ELF::SHT_DYNSYM);
    if (!dynsym) return;
    auto syms = obj_.symbols(dynsym);
    if (!syms) return Warn("dynamic symbol table: " + TakeMessage(syms.takeError()));
    auto strtab = obj_.getStringTableForSymtab(*dynsym, sections_);
    if (!strtab) return Warn("dynamic string table: " + TakeMessage(strtab.takeError()));

    ReadVersionDefinitions();
    ReadVersionNeeds();
    llvm::ArrayRef<Elf_Versym> versyms;
    if (const Elf_Shdr* vs = FindSection(llvm::ELF::SHT_GNU_versym)) {
      auto arr = obj_.template getSectionContentsAsArray<Elf_Versym>(*vs);
      if (!arr)
        Warn("symbol version table: " + TakeMessage(arr.takeError()));
      else
        versyms = *arr;
    }
    model_->has_version_table = !versyms.empty();
    model_->dynamic_strings = std::string_view(strtab->data(), strtab->size());
    // The dynamic relocation sections (.rela.dyn, .rela.plt, ...) are the ones linked to
    // .dynsym. Their contents are only read when the file itself is audited.
    std::vector<llvm::ArrayRef<typename ELFT::Rela>> relas;
    std::vector<llvm::ArrayRef<typename ELFT::Rel>> rels;
    uint32_t dynsym_index = static_cast<uint32_t>(dynsym - sections_.begin());
    for (const Elf_Shdr& sec : sections_) {
      if (sec.sh_link != dynsym_index) continue;
      if (sec.sh_type == llvm::ELF::SHT_RELA) {
        if (auto r = obj_.relas(sec))
          relas.push_back(*r);
        else
          Warn("relocation section: " + TakeMessage(r.takeError()));
      } else if (sec.sh_type == llvm::ELF::SHT_REL) {
        if (auto r = obj_.rels(sec))
          rels.push_back(*r);
        else
          Warn("relocation section: " + TakeMessage(r.takeError()));
      }
    }
    CheckTablesAgainstSections(*dynsym);
    const uint32_t unnamed_from = UndefinedNamesRead(*syms, model_->dynamic_strings);
    ListUndefinedSymbols(*syms);
    model_->symbol_table = std::make_unique<LlvmSymbolTable<ELFT>>(
        *syms, versyms, std::move(relas), std::move(rels), obj_.isMips64EL(), unnamed_from);
    // ld.so reads a name at strtab + st_name unchecked: past the table it reads whatever
    // lies there (or faults). Such symbols are nameless here.
    size_t outside = 0;
    for (const auto& sym : *syms) outside += sym.st_name >= strtab->size();
    if (outside)
      Warn(std::to_string(outside) + " dynamic symbol" +
           (outside == 1 ? " has its name" : "s have their names") + " outside the string table");
    ReadHashTable(static_cast<uint32_t>(std::min<size_t>(syms->size(), UINT32_MAX)));
  }

  // The undefined symbols' indices, for the passes over a file's imports; none kept past
  // kMaxListedUndefined (4 MiB of list), where those passes read the table whole instead.
  void ListUndefinedSymbols(llvm::ArrayRef<typename ELFT::Sym> syms) {
    constexpr size_t kMaxListedUndefined = size_t(1) << 20;
    std::vector<uint32_t> undefined;
    for (size_t i = 1; i < syms.size() && i < UINT32_MAX; ++i) {
      if (syms[i].st_shndx != llvm::ELF::SHN_UNDEF) continue;
      if (undefined.size() >= kMaxListedUndefined) return;
      undefined.push_back(static_cast<uint32_t>(i));
    }
    undefined.shrink_to_fit();
    model_->undefined_symbols = std::move(undefined);
  }

  // The index from which undefined symbols go unnamed: their names, before it, take up to
  // kMaxUndefinedNameBytes. Counted here once (the lengths up to the cap, no further), so that
  // the file costs the lookups of what it holds, not of how often it points into one string.
  uint32_t UndefinedNamesRead(llvm::ArrayRef<typename ELFT::Sym> syms, std::string_view strings) {
    const uint32_t count = static_cast<uint32_t>(std::min<size_t>(syms.size(), UINT32_MAX));
    uint64_t bytes = 0;
    for (uint32_t i = 1; i < count; ++i) {
      if (syms[i].st_shndx != llvm::ELF::SHN_UNDEF || syms[i].st_name >= strings.size()) continue;
      const size_t end = strings.find('\0', syms[i].st_name);
      bytes += (end == std::string_view::npos ? strings.size() : end) - syms[i].st_name;
      if (bytes <= kMaxUndefinedNameBytes) continue;
      uint32_t unread = 0;
      for (uint32_t j = i; j < count; ++j) unread += syms[j].st_shndx == llvm::ELF::SHN_UNDEF;
      Warn(std::to_string(unread) + " undefined dynamic symbol" + (unread == 1 ? " was" : "s were") +
           " not looked up: the names before them pass rocm-audit's cap of " +
           std::to_string(kMaxUndefinedNameBytes) + " bytes of undefined symbol names per file");
      return i;
    }
    return count;
  }

  // The bytes at virtual address `addr`, if `size` of them lie inside the file. Compared as
  // integers: toMappedAddr can point anywhere for a hostile PT_LOAD.
  const uint8_t* MappedRange(uint64_t addr, uint64_t size) {
    auto ptr = obj_.toMappedAddr(addr);
    if (!ptr) {
      llvm::consumeError(ptr.takeError());
      return nullptr;
    }
    uintptr_t at = reinterpret_cast<uintptr_t>(*ptr), start = reinterpret_cast<uintptr_t>(file_.data());
    if (at < start || at - start > file_.size() || size > file_.size() - (at - start)) return nullptr;
    return *ptr;
  }

  uint32_t Word(const uint8_t* p) const {
    return model_->little_endian ? llvm::support::endian::read32le(p) : llvm::support::endian::read32be(p);
  }

  // The bytes of a word of DT_HASH: 8 for 64-bit s390 and Alpha (glibc's Elf_Symndx is
  // uint64_t there, sysdeps/s390/bits/elfclass.h and sysdeps/unix/sysv/linux/alpha/
  // bits/elfclass.h; binutils' elf64-s390.c and elf64-alpha.c set hash_entry_size 8), 4
  // elsewhere. Read as 4 bytes, a valid s390x .hash has 0 buckets (the high half of nbucket).
  // Linux/Alpha's files carry glibc's EM_ALPHA, 0x9026; 41 is the gABI's number for it.
  uint8_t SysvHashWordSize() const {
    constexpr uint16_t kLinuxAlpha = 0x9026;
    const uint16_t m = model_->machine;
    const bool wide = m == llvm::ELF::EM_S390 || m == llvm::ELF::EM_ALPHA || m == kLinuxAlpha;
    return wide && model_->elf_class == 2 ? 8 : 4;
  }

  uint64_t HashWord(const uint8_t* p, uint8_t size) const {
    if (size == 4) return Word(p);
    return model_->little_endian ? llvm::support::endian::read64le(p) : llvm::support::endian::read64be(p);
  }

  // DT_GNU_HASH first, as glibc prefers it; DT_HASH otherwise. Every range is checked here
  // so that lookups can index without checks.
  void ReadHashTable(uint32_t symbol_count) {
    ElfModel::HashTable& h = model_->hash_table;
    if (gnu_hash_addr_) {
      const uint8_t* header = MappedRange(*gnu_hash_addr_, 16);
      if (header) {
        uint32_t buckets = Word(header), first = Word(header + 4), bloom = Word(header + 8);
        uint64_t bloom_bytes = uint64_t{bloom} * (model_->elf_class == 2 ? 8 : 4);
        uint64_t chain_count = first <= symbol_count ? symbol_count - first : 0;
        uint64_t size = 16 + bloom_bytes + 4ull * buckets + 4 * chain_count;
        if (buckets > 0 && first <= symbol_count && MappedRange(*gnu_hash_addr_, size)) {
          h.kind = ElfModel::HashTable::kGnu;
          h.bucket_count = buckets;
          h.buckets = header + 16 + bloom_bytes;
          h.first_hashed = first;
          h.chain_count = static_cast<uint32_t>(chain_count);
          h.chains = h.buckets + 4ull * buckets;
          if (bloom > 0 && (bloom & (bloom - 1)) == 0) {
            h.bloom = header + 16;
            h.bloom_words = bloom;
            h.bloom_shift = Word(header + 12);
          }
          return;
        }
      }
      Warn("DT_GNU_HASH table lies outside the file or does not match .dynsym");
    }
    if (sysv_hash_addr_) {
      const uint8_t w = SysvHashWordSize();
      const uint8_t* header = MappedRange(*sysv_hash_addr_, 2ull * w);
      if (header) {
        uint64_t buckets = HashWord(header, w), chains = HashWord(header + w, w);
        if (buckets > 0 && buckets <= UINT32_MAX && chains <= symbol_count &&
            MappedRange(*sysv_hash_addr_, w * (2 + buckets + chains))) {
          h.kind = ElfModel::HashTable::kSysv;
          h.word_size = w;
          h.bucket_count = static_cast<uint32_t>(buckets);
          h.buckets = header + 2 * w;
          h.chain_count = static_cast<uint32_t>(chains);
          h.chains = h.buckets + w * buckets;
          return;
        }
      }
      Warn("DT_HASH table lies outside the file or does not match .dynsym");
    }
  }

  // Version definitions and needs, read by walking their chains here rather than with
  // LLVM 19's getVersionDefinitions/getVersionDependencies, which follow a zero
  // vd_next/vn_next for as many entries as sh_info claims, billions for a hostile file, and
  // copy the whole rest of the string table into every name, megabytes per version entry of
  // a library with a large .dynstr. Every read here is bounds-checked, and a chain with more
  // entries than its section can hold is refused.
  template <class Entry, class Aux>
  bool WalkVersionChain(const Elf_Shdr& sec, const char* what,
                        const std::function<void(const Entry&, std::string_view file, const Aux&,
                                                 std::string_view name)>& visit) {
    auto fail = [&](const std::string& why) {
      Warn(std::string(what) + ": " + why);
      return false;
    };
    auto bytes = obj_.getSectionContents(sec);
    if (!bytes) return fail(TakeMessage(bytes.takeError()));
    auto strsec = obj_.getSection(sec.sh_link);
    if (!strsec) return fail(TakeMessage(strsec.takeError()));
    auto strtab = obj_.getStringTable(**strsec);
    if (!strtab) return fail(TakeMessage(strtab.takeError()));
    std::string_view strings(strtab->data(), strtab->size());

    const size_t size = bytes->size();
    const size_t max_entries = size / sizeof(Aux) + 1;
    size_t visited = 0, offset = 0;
    for (uint64_t i = 0; i < sec.sh_info; ++i) {
      if (offset > size || size - offset < sizeof(Entry)) return fail("entry past the end of the section");
      Entry e;
      std::memcpy(&e, bytes->data() + offset, sizeof e);
      uint64_t count, aux_link, next;
      std::string_view file;
      if constexpr (std::is_same_v<Entry, typename ELFT::Verneed>) {
        count = e.vn_cnt;
        aux_link = e.vn_aux;
        next = e.vn_next;
        if (!StringAt(strings, e.vn_file, &file)) return fail("file name outside the string table");
      } else {
        count = e.vd_cnt;
        aux_link = e.vd_aux;
        next = e.vd_next;
      }
      size_t aux = offset + aux_link;
      for (uint64_t j = 0; j < count; ++j) {
        if (++visited > max_entries) return fail("more entries than the section can hold");
        if (aux > size || size - aux < sizeof(Aux)) return fail("auxiliary entry past the end");
        Aux a;
        std::memcpy(&a, bytes->data() + aux, sizeof a);
        uint64_t aux_next, name_offset;
        if constexpr (std::is_same_v<Aux, typename ELFT::Vernaux>) {
          aux_next = a.vna_next;
          name_offset = a.vna_name;
        } else {
          aux_next = a.vda_next;
          name_offset = a.vda_name;
        }
        std::string_view name;
        if (!StringAt(strings, name_offset, &name)) return fail("version name outside the string table");
        visit(e, file, a, name);
        if constexpr (std::is_same_v<Aux, typename ELFT::Verdaux>) break;  // only the first names it
        if (aux_next == 0 && j + 1 < count) return fail("auxiliary chain ends before its count");
        // glibc (_dl_check_map_versions) walks a chain until a zero link, not by its count.
        if (aux_next != 0 && j + 1 == count) return fail("the last auxiliary entry links further");
        aux += aux_next;
      }
      if (++visited > max_entries) return fail("more entries than the section can hold");
      if (next == 0 && i + 1 < sec.sh_info) return fail("chain ends before its count");
      if (next != 0 && i + 1 == sec.sh_info) return fail("the last entry links further (glibc follows it)");
      offset += next;
    }
    return true;
  }

  void ReadVersionDefinitions() {
    const Elf_Shdr* sec = FindSection(llvm::ELF::SHT_GNU_verdef);
    if (!sec) return;
    using Verdef = typename ELFT::Verdef;
    using Verdaux = typename ELFT::Verdaux;
    model_->has_version_definitions = WalkVersionChain<Verdef, Verdaux>(
        *sec, "version definitions",
        [&](const Verdef& d, std::string_view, const Verdaux&, std::string_view name) {
          // glibc (_dl_check_map_versions) does not record the base version: index 1 then
          // reads as "unversioned", which matters for versioned lookups.
          if (d.vd_flags & llvm::ELF::VER_FLG_BASE) return;
          model_->version_names[d.vd_ndx & llvm::ELF::VERSYM_VERSION] = name;
          model_->defined_versions.push_back(name);
        });
  }

  void ReadVersionNeeds() {
    const Elf_Shdr* sec = FindSection(llvm::ELF::SHT_GNU_verneed);
    if (!sec) return;
    using Verneed = typename ELFT::Verneed;
    using Vernaux = typename ELFT::Vernaux;
    WalkVersionChain<Verneed, Vernaux>(
        *sec, "version needs",
        [&](const Verneed&, std::string_view file, const Vernaux& aux, std::string_view name) {
          uint16_t index = aux.vna_other & llvm::ELF::VERSYM_VERSION;
          model_->version_names[index] = name;
          model_->needed_versions.push_back(
              NeededVersion{file, name, index, (aux.vna_flags & llvm::ELF::VER_FLG_WEAK) != 0});
        });
  }

  // ld.so finds the symbols, their names and versions through the dynamic section
  // (DT_SYMTAB, DT_STRTAB, DT_VERSYM, DT_VERDEF, DT_VERNEED: elf/get-dynamic-info.h,
  // dl-lookup.c, dl-version.c), this reader through the section headers, as LLVM's tools and
  // the linkers do. Every linker writes both for the same bytes; where they part (hostile,
  // or a header rewritten by hand), the loader reads tables this audit did not, so say so.
  void CheckTablesAgainstSections(const Elf_Shdr& dynsym) {
    const Elf_Shdr* dynstr = dynsym.sh_link < sections_.size() ? &sections_[dynsym.sh_link] : nullptr;
    const Elf_Shdr* by_tag[] = {&dynsym, dynstr, FindSection(llvm::ELF::SHT_GNU_versym),
                                FindSection(llvm::ELF::SHT_GNU_verdef),
                                FindSection(llvm::ELF::SHT_GNU_verneed)};
    static_assert(std::size(by_tag) == std::tuple_size_v<decltype(table_tags_)>);
    for (size_t i = 0; i < std::size(by_tag); ++i) {
      const TableTag& t = table_tags_[i];
      const Elf_Shdr* sec = by_tag[i];
      if (!t.addr && !sec) continue;
      if (!t.addr)
        Warn(std::string(t.section) + " has no " + t.name +
             " in the dynamic section: ld.so does not read it");
      else if (!sec)
        Warn(std::string(t.name) + " (" + Hex(*t.addr) + ") has no " + t.section +
             " section header: ld.so reads a table this audit cannot");
      else if (*t.addr != sec->sh_addr)
        Warn(std::string(t.name) + " (" + Hex(*t.addr) + ") is not the address of " + t.section + " (" +
             Hex(sec->sh_addr) + "): ld.so reads the table at " + t.name + ", this audit read the section");
    }
  }

  void Warn(std::string message) { model_->warnings.push_back(std::move(message)); }

  const ELFFile<ELFT>& obj_;
  std::optional<uint64_t> gnu_hash_addr_, sysv_hash_addr_;
  // The tables ld.so reads through the dynamic section, in CheckTablesAgainstSections' order.
  struct TableTag {
    int64_t tag;
    const char* name;
    const char* section;
    std::optional<uint64_t> addr;
  };
  std::array<TableTag, 5> table_tags_{{{llvm::ELF::DT_SYMTAB, "DT_SYMTAB", ".dynsym", {}},
                                       {llvm::ELF::DT_STRTAB, "DT_STRTAB", ".dynstr", {}},
                                       {llvm::ELF::DT_VERSYM, "DT_VERSYM", ".gnu.version", {}},
                                       {llvm::ELF::DT_VERDEF, "DT_VERDEF", ".gnu.version_d", {}},
                                       {llvm::ELF::DT_VERNEED, "DT_VERNEED", ".gnu.version_r", {}}}};
  std::string_view file_;
  ElfModel* model_;
  typename ELFT::ShdrRange sections_;
  typename ELFT::PhdrRange phdrs_;
};

template <class ELFT>
bool ReadAs(std::string_view bytes, ElfModel* model, std::string* error) {
  auto obj = ELFFile<ELFT>::create(llvm::StringRef(bytes.data(), bytes.size()));
  if (!obj) {
    *error = TakeMessage(obj.takeError());
    return false;
  }
  return Reader<ELFT>(*obj, bytes, model).Read(error);
}

}  // namespace

// Never blocks: the loader hands the store files it found by searching, not files the walk
// classified, and even a walked file may be replaced by a FIFO before it is read; open(2)
// of a FIFO waits for a writer. Opened non-blocking, and refused unless the descriptor is
// a regular file.
std::shared_ptr<llvm::MemoryBuffer> MapFile(const std::string& path, std::string* error,
                                            struct stat* opened) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    *error = std::generic_category().message(errno);
    return nullptr;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    *error = "not a regular file";
    close(fd);
    return nullptr;
  }
  if (opened) *opened = st;
  // RequiresNullTerminator=false lets LLVM mmap the file instead of copying it.
  auto buf = llvm::MemoryBuffer::getOpenFile(llvm::sys::fs::convertFDToNativeFile(fd), path,
                                             static_cast<uint64_t>(st.st_size),
                                             /*RequiresNullTerminator=*/false, /*IsVolatile=*/false);
  if (!buf) {
    *error = buf.getError().message();
    // Too large for the address space (a 100 GiB library under a 4 GiB limit; LLVM then
    // tries a copy as large): an ELF file is read by the ranges the audit reads instead.
    std::shared_ptr<llvm::MemoryBuffer> head;
    if (buf.getError() == std::errc::not_enough_memory)
      head = ReadElfHeadImage(fd, static_cast<uint64_t>(st.st_size), path, error);
    close(fd);
    return head;
  }
  close(fd);
  return std::shared_ptr<llvm::MemoryBuffer>(std::move(*buf));
}

bool ReadElfIdentity(std::string_view bytes, ElfIdentity* out, std::string* error) {
  // glibc's open_verify checks the length (sizeof(Elf64_Ehdr) on a 64-bit loader) before
  // the magic, and words its errors this way; ldd users will recognise them.
  bool short32 = bytes.size() >= 52 && bytes.size() > llvm::ELF::EI_CLASS &&
                 bytes[llvm::ELF::EI_CLASS] == llvm::ELF::ELFCLASS32;
  if (bytes.size() < 64 && !short32) {
    *error = "file too short";
    return false;
  }
  if (bytes.substr(0, 4) !=
      "\x7f"
      "ELF") {
    *error = "invalid ELF header";
    return false;
  }
  out->elf_class = static_cast<uint8_t>(bytes[llvm::ELF::EI_CLASS]);
  uint8_t data = static_cast<uint8_t>(bytes[llvm::ELF::EI_DATA]);
  if ((out->elf_class != 1 && out->elf_class != 2) || (data != 1 && data != 2)) {
    *error = "invalid ELF class or data encoding";
    return false;
  }
  out->little_endian = data == llvm::ELF::ELFDATA2LSB;
  auto u16 = [&](size_t off) {
    uint8_t a = bytes[off], b = bytes[off + 1];
    return static_cast<uint16_t>(out->little_endian ? a | (b << 8) : (a << 8) | b);
  };
  out->type = u16(16);
  out->machine = u16(18);
  return true;
}

bool ReadElf(std::shared_ptr<llvm::MemoryBuffer> buffer, std::string path, ElfModel* model,
             std::string* error) {
  std::string_view bytes(buffer->getBufferStart(), buffer->getBufferSize());
  ElfIdentity id;
  if (!ReadElfIdentity(bytes, &id, error)) return false;
  model->path = std::move(path);
  model->elf_class = id.elf_class;
  model->little_endian = id.little_endian;
  model->buffer = std::move(buffer);
  if (id.elf_class == 2)
    return id.little_endian ? ReadAs<llvm::object::ELF64LE>(bytes, model, error)
                            : ReadAs<llvm::object::ELF64BE>(bytes, model, error);
  return id.little_endian ? ReadAs<llvm::object::ELF32LE>(bytes, model, error)
                          : ReadAs<llvm::object::ELF32BE>(bytes, model, error);
}

uint64_t RelocationScans() { return g_relocation_scans.load(std::memory_order_relaxed); }

}  // namespace rocm_audit
