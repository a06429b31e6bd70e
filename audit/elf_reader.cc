#include "audit/elf_reader.h"

#include <llvm/BinaryFormat/ELF.h>
#include <llvm/Object/ELF.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>

#include <cstring>
#include <type_traits>

namespace rocm_audit {
namespace {

using llvm::object::ELFFile;

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

// LLVM 19's VerDef/VernAux names are built from the string table's remainder and can run
// past the terminating NUL; the version name ends at the first NUL.
std::string UpToNul(const std::string& s) { return s.substr(0, s.find('\0')); }

// A NUL-terminated string at `offset` inside `table`, or an error when it runs off the end.
bool StringAt(std::string_view table, uint64_t offset, std::string_view* out) {
  if (offset >= table.size()) return false;
  size_t end = table.find('\0', offset);
  if (end == std::string_view::npos) return false;
  *out = table.substr(offset, end - offset);
  return true;
}

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
    for (const auto& ph : *phdrs)
      if (ph.p_type == llvm::ELF::PT_INTERP) model_->has_interpreter = true;

    auto sections = obj_.sections();
    if (!sections) return Fail(error, "section headers: " + TakeMessage(sections.takeError()));
    sections_ = *sections;

    if (!ReadDynamic(error)) return false;
    ReadDynamicSymbols();
    return true;
  }

 private:
  using Elf_Shdr = typename ELFT::Shdr;
  using Elf_Versym = typename ELFT::Versym;

  bool Fail(std::string* error, std::string message) {
    *error = std::move(message);
    return false;
  }

  // The loader reads the dynamic section through PT_DYNAMIC and DT_STRTAB, not through
  // section headers, so this does the same; sstripped files still audit.
  bool ReadDynamic(std::string* error) {
    // LLVM 19's dynamicEntries() turns PT_DYNAMIC's file range into an array without
    // checking it against the buffer: check it here first (found by the corruption test).
    auto phdrs = obj_.program_headers();
    if (!phdrs) return Fail(error, "program headers: " + TakeMessage(phdrs.takeError()));
    for (const auto& ph : *phdrs) {
      if (ph.p_type != llvm::ELF::PT_DYNAMIC) continue;
      uint64_t offset = ph.p_offset, size = ph.p_filesz;
      if (offset > file_.size() || size > file_.size() - offset)
        return Fail(error, "PT_DYNAMIC (offset " + std::to_string(offset) + ", size " +
                               std::to_string(size) + ") extends past the end of the file");
      if (offset % alignof(typename ELFT::Dyn) != 0)
        return Fail(error, "PT_DYNAMIC is misaligned");
      break;
    }
    auto dyn = obj_.dynamicEntries();
    if (!dyn) return Fail(error, "dynamic section: " + TakeMessage(dyn.takeError()));
    if (dyn->empty()) return true;
    model_->has_dynamic = true;

    uint64_t strtab_addr = 0, strsz = 0;
    bool have_strtab = false;
    for (const auto& d : *dyn) {
      if (d.d_tag == llvm::ELF::DT_STRTAB) { strtab_addr = d.getPtr(); have_strtab = true; }
      if (d.d_tag == llvm::ELF::DT_STRSZ) strsz = d.getVal();
      if (d.d_tag == llvm::ELF::DT_FLAGS_1 && (d.getVal() & llvm::ELF::DF_1_NODEFLIB))
        model_->nodeflib = true;
      if (d.d_tag == llvm::ELF::DT_NULL) break;
    }
    std::string_view strtab;
    if (have_strtab) {
      auto ptr = obj_.toMappedAddr(strtab_addr);
      if (!ptr) return Fail(error, "DT_STRTAB: " + TakeMessage(ptr.takeError()));
      const char* begin = reinterpret_cast<const char*>(*ptr);
      const char* file_begin = file_.data();
      uint64_t offset = static_cast<uint64_t>(begin - file_begin);
      if (offset > file_.size() || strsz > file_.size() - offset)
        return Fail(error, "DT_STRTAB/DT_STRSZ extend past the end of the file");
      strtab = std::string_view(begin, strsz);
    }
    std::string_view rpath, runpath;
    bool have_rpath = false;
    for (const auto& d : *dyn) {
      int64_t tag = d.d_tag;
      if (tag == llvm::ELF::DT_NULL) break;
      if (tag != llvm::ELF::DT_NEEDED && tag != llvm::ELF::DT_SONAME &&
          tag != llvm::ELF::DT_RPATH && tag != llvm::ELF::DT_RUNPATH)
        continue;
      std::string_view value;
      if (!StringAt(strtab, d.getVal(), &value))
        return Fail(error, "dynamic entry string offset " + std::to_string(d.getVal()) +
                               " is outside DT_STRTAB");
      switch (tag) {
        case llvm::ELF::DT_NEEDED: model_->needed.emplace_back(value); break;
        case llvm::ELF::DT_SONAME: model_->soname = std::string(value); break;
        case llvm::ELF::DT_RPATH: rpath = value; have_rpath = true; break;
        case llvm::ELF::DT_RUNPATH: runpath = value; model_->has_runpath = true; break;
      }
    }
    if (model_->has_runpath) model_->runpath = SplitPathList(runpath);
    // glibc (elf/get-dynamic-info.h): "If we have a DT_RUNPATH, ignore DT_RPATH".
    else if (have_rpath) model_->rpath = SplitPathList(rpath);
    return true;
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
      if (!arr) Warn("symbol version table: " + TakeMessage(arr.takeError()));
      else versyms = *arr;
    }
    model_->has_version_table = !versyms.empty();

    model_->symbols.reserve(syms->size());
    for (size_t i = 1; i < syms->size(); ++i) {
      const auto& s = (*syms)[i];
      DynamicSymbol out;
      std::string_view name;
      if (!StringAt(std::string_view(strtab->data(), strtab->size()), s.st_name, &name)) {
        Warn("dynamic symbol " + std::to_string(i) + " has a name outside the string table");
        continue;
      }
      out.name = name;
      out.value = s.st_value;
      out.section_index = s.st_shndx;
      out.type = s.getType();
      out.binding = s.getBinding();
      out.visibility = s.getVisibility();
      if (i < versyms.size()) {
        uint16_t v = versyms[i].vs_index;
        out.has_version = true;
        out.version_index = v & llvm::ELF::VERSYM_VERSION;
        out.version_hidden = (v & llvm::ELF::VERSYM_HIDDEN) != 0;
      }
      model_->symbols.push_back(out);
    }
  }

  // LLVM 19 follows vd_next/vn_next and the aux chains for as many entries as the headers
  // claim, without noticing a zero link: a hostile count costs billions of iterations and
  // gigabytes (found by the corruption test). Walk the chains first, bounds-checked, and
  // refuse a chain with more entries than the section has room for.
  template <class Entry, class Aux>
  bool VersionChainFits(const Elf_Shdr& sec, const char* what) {
    auto bytes = obj_.getSectionContents(sec);
    if (!bytes) {
      Warn(std::string(what) + ": " + TakeMessage(bytes.takeError()));
      return false;
    }
    const size_t size = bytes->size();
    const size_t max_entries = size / sizeof(Aux) + 1;
    size_t visited = 0, offset = 0;
    auto fail = [&](const std::string& why) {
      Warn(std::string(what) + ": " + why);
      return false;
    };
    for (uint64_t i = 0; i < sec.sh_info; ++i) {
      if (offset > size || size - offset < sizeof(Entry)) return fail("entry past the end of the section");
      Entry e;
      std::memcpy(&e, bytes->data() + offset, sizeof e);
      uint64_t count, aux_link, next;
      if constexpr (std::is_same_v<Entry, typename ELFT::Verneed>) {
        count = e.vn_cnt; aux_link = e.vn_aux; next = e.vn_next;
      } else {
        count = e.vd_cnt; aux_link = e.vd_aux; next = e.vd_next;
      }
      size_t aux = offset + aux_link;
      for (uint64_t j = 0; j < count; ++j) {
        if (++visited > max_entries) return fail("more entries than the section can hold");
        if (aux > size || size - aux < sizeof(Aux)) return fail("auxiliary entry past the end");
        Aux a;
        std::memcpy(&a, bytes->data() + aux, sizeof a);
        uint64_t aux_next;
        if constexpr (std::is_same_v<Aux, typename ELFT::Vernaux>) aux_next = a.vna_next;
        else aux_next = a.vda_next;
        if (aux_next == 0 && j + 1 < count) return fail("auxiliary chain ends before its count");
        aux += aux_next;
      }
      if (++visited > max_entries) return fail("more entries than the section can hold");
      if (next == 0 && i + 1 < sec.sh_info) return fail("chain ends before its count");
      offset += next;
    }
    return true;
  }

  void ReadVersionDefinitions() {
    const Elf_Shdr* sec = FindSection(llvm::ELF::SHT_GNU_verdef);
    if (!sec || !VersionChainFits<typename ELFT::Verdef, typename ELFT::Verdaux>(*sec, "version definitions"))
      return;
    auto defs = obj_.getVersionDefinitions(*sec);
    if (!defs) return Warn("version definitions: " + TakeMessage(defs.takeError()));
    model_->has_version_definitions = true;
    for (const auto& d : *defs) {
      // glibc (_dl_check_map_versions) does not record the base version: index 1 then
      // reads as "unversioned", which matters for versioned lookups.
      if (d.Flags & llvm::ELF::VER_FLG_BASE) continue;
      model_->version_names[d.Ndx] = UpToNul(d.Name);
      model_->defined_versions.push_back(UpToNul(d.Name));
    }
  }

  void ReadVersionNeeds() {
    const Elf_Shdr* sec = FindSection(llvm::ELF::SHT_GNU_verneed);
    if (!sec || !VersionChainFits<typename ELFT::Verneed, typename ELFT::Vernaux>(*sec, "version needs"))
      return;
    auto needs = obj_.getVersionDependencies(*sec);
    if (!needs) return Warn("version needs: " + TakeMessage(needs.takeError()));
    for (const auto& n : *needs) {
      for (const auto& aux : n.AuxV) {
        model_->version_names[aux.Other & llvm::ELF::VERSYM_VERSION] = UpToNul(aux.Name);
        model_->needed_versions.push_back(NeededVersion{
            UpToNul(n.File), UpToNul(aux.Name), static_cast<uint16_t>(aux.Other & llvm::ELF::VERSYM_VERSION),
            (aux.Flags & llvm::ELF::VER_FLG_WEAK) != 0});
      }
    }
  }

  void Warn(std::string message) { model_->warnings.push_back(std::move(message)); }

  const ELFFile<ELFT>& obj_;
  std::string_view file_;
  ElfModel* model_;
  typename ELFT::ShdrRange sections_;
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

std::shared_ptr<llvm::MemoryBuffer> MapFile(const std::string& path, std::string* error) {
  // RequiresNullTerminator=false lets LLVM mmap the file instead of copying it.
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false, /*IsVolatile=*/false);
  if (!buf) {
    *error = buf.getError().message();
    return nullptr;
  }
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
  if (bytes.substr(0, 4) != "\x7f" "ELF") {
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

}  // namespace rocm_audit
