#include "tests/audit/elf/ar_builder.h"

#include <stdexcept>

namespace rocm_audit::testing {
namespace {

class Writer {
 public:
  explicit Writer(bool little) : little_(little) {}
  std::string bytes;

  void Put(uint64_t at, uint64_t value, size_t width) {
    if (bytes.size() < at + width) bytes.resize(at + width, '\0');
    for (size_t i = 0; i < width; ++i) {
      size_t shift = 8 * (little_ ? i : width - 1 - i);
      bytes[at + i] = char((value >> shift) & 0xff);
    }
  }

 private:
  bool little_;
};

struct Symbol {
  std::string name;
  uint8_t binding;
  uint16_t shndx;
};

std::vector<Symbol> SymbolsOf(const ElfObjectSpec& spec) {
  std::vector<Symbol> out;
  for (const auto& n : spec.local) out.push_back({n, 0, 1});
  for (const auto& n : spec.defined) out.push_back({n, 1, 1});
  for (const auto& n : spec.weak) out.push_back({n, 2, 1});
  for (const auto& n : spec.undefined) out.push_back({n, 1, 0});
  return out;
}

}  // namespace

ElfObjectLayout LayoutOf(const ElfObjectSpec& spec) {
  const uint64_t ehdr = spec.elf64 ? 64 : 52, sym = spec.elf64 ? 24 : 16, shdr = spec.elf64 ? 64 : 40;
  uint64_t strings = 1 + 8 + 8;  // "\0.strtab\0.symtab\0"
  for (const Symbol& s : SymbolsOf(spec)) strings += s.name.size() + 1;
  const uint64_t symbols = ehdr + strings;
  uint64_t shoff = symbols + (SymbolsOf(spec).size() + 1) * sym;
  shoff = (shoff + 7) & ~uint64_t(7);
  return {shoff, shoff + 2 * shdr, symbols};
}

std::string ElfObject(const ElfObjectSpec& spec) {
  const bool w64 = spec.elf64;
  const size_t addr = w64 ? 8 : 4, sym = w64 ? 24 : 16, shdr = w64 ? 64 : 40;
  const ElfObjectLayout layout = LayoutOf(spec);
  const std::vector<Symbol> symbols = SymbolsOf(spec);
  Writer w(spec.little);
  w.bytes.assign(16, '\0');
  w.bytes[0] = 0x7f, w.bytes[1] = 'E', w.bytes[2] = 'L', w.bytes[3] = 'F';
  w.bytes[4] = w64 ? 2 : 1, w.bytes[5] = spec.little ? 1 : 2, w.bytes[6] = 1;
  w.Put(16, 1, 2);  // ET_REL
  w.Put(18, spec.machine, 2);
  w.Put(20, 1, 4);
  w.Put(w64 ? 40 : 32, layout.shoff, addr);
  w.Put(w64 ? 52 : 40, w64 ? 64 : 52, 2);  // e_ehsize
  w.Put(w64 ? 58 : 46, shdr, 2);
  w.Put(w64 ? 60 : 48, spec.extended_shnum ? 0 : 3, 2);
  w.Put(w64 ? 62 : 50, 1, 2);  // e_shstrndx: .strtab names the sections too
  const uint64_t strtab = w64 ? 64 : 52;
  std::string strings = std::string("\0.strtab\0.symtab\0", 17);
  std::vector<uint64_t> names;
  for (const Symbol& s : symbols) {
    names.push_back(strings.size());
    strings += s.name + '\0';
  }
  w.bytes.resize(strtab);
  w.bytes += strings;
  for (size_t i = 0; i < symbols.size(); ++i) {
    uint64_t at = layout.symbols + (i + 1) * sym;
    w.Put(at, names[i], 4);
    w.Put(at + (w64 ? 4 : 12), uint64_t(symbols[i].binding) << 4 | 1, 1);  // STT_OBJECT
    w.Put(at + (w64 ? 6 : 14), symbols[i].shndx, 2);
  }
  w.Put(layout.symbols + (symbols.size() + 1) * sym - 1, 0, 1);
  auto section = [&](uint64_t i, uint64_t name, uint64_t type, uint64_t offset, uint64_t size, uint64_t link,
                     uint64_t entsize) {
    uint64_t at = layout.shoff + i * shdr;
    w.Put(at, name, 4);
    w.Put(at + 4, type, 4);
    w.Put(at + (w64 ? 24 : 16), offset, addr);
    w.Put(at + (w64 ? 32 : 20), size, addr);
    w.Put(at + (w64 ? 40 : 24), link, 4);
    w.Put(at + (w64 ? 44 : 28), link ? symbols.size() + 1 : 0, 4);
    w.Put(at + (w64 ? 56 : 36), entsize, addr);
  };
  section(0, 0, 0, 0, spec.extended_shnum ? 3 : 0, 0, 0);
  section(1, 1, 3, strtab, strings.size(), 0, 0);
  section(2, 9, 2, layout.symbols, (symbols.size() + 1) * sym, 1, sym);
  return w.bytes;
}

void ArBuilder::Add(std::string name, std::string data) {
  uint64_t size = data.size();
  members_.push_back({std::move(name), std::move(data), size});
}

void ArBuilder::AddThin(std::string path, uint64_t size) { members_.push_back({std::move(path), "", size}); }

void ArBuilder::SymbolTable(std::vector<std::pair<std::string, uint64_t>> entries, bool sym64,
                            std::optional<uint64_t> claimed_count) {
  symbols_ = std::move(entries);
  sym64_ = sym64;
  has_symbols_ = true;
  claimed_count_ = claimed_count;
}

void ArBuilder::SetField(std::string* bytes, uint64_t header, size_t start, size_t width,
                         const std::string& text) {
  if (text.size() > width) throw std::invalid_argument("field too wide");
  std::string padded = text + std::string(width - text.size(), ' ');
  bytes->replace(header + start, width, padded);
}

namespace {

std::string Header(const std::string& name, uint64_t size) {
  std::string h(60, ' ');
  h.replace(0, name.size(), name);
  h.replace(16, 1, "0");
  h.replace(28, 1, "0");
  h.replace(34, 1, "0");
  h.replace(40, 3, "644");
  std::string s = std::to_string(size);
  h.replace(48, s.size(), s);
  h.replace(58, 2, "`\n");
  return h;
}

void Pad(std::string* out) {
  if (out->size() % 2) *out += '\n';
}

}  // namespace

std::string ArBuilder::Bytes() {
  // Names: short ones "name/" in the header; long ones (and every thin member's) "/N" into //.
  std::string table;
  std::vector<std::string> field;
  for (const Member& m : members_) {
    if (!thin_ && m.name.size() < 16) {
      field.push_back(m.name + "/");
      continue;
    }
    field.push_back("/" + std::to_string(table.size()));
    table += m.name + "/\n";
  }
  const size_t width = sym64_ ? 8 : 4;
  std::string names;
  for (const auto& s : symbols_) names += s.first + '\0';
  const uint64_t symtab_size = has_symbols_ ? width * (1 + symbols_.size()) + names.size() : 0;
  uint64_t at = 8;
  if (has_symbols_) at += 60 + symtab_size + (symtab_size % 2);
  name_table_at_ = at;
  name_table_size_ = table.size();
  if (!table.empty()) at += 60 + table.size() + (table.size() % 2);
  headers_.clear();
  for (const Member& m : members_) {
    headers_.push_back(at);
    if (!thin_)
      at += 60 + m.size + (m.size % 2);
    else
      at += 60;
  }
  const uint64_t total = at;

  Writer w(/*little=*/false);  // the symbol table is big-endian whatever the target
  w.bytes = thin_ ? "!<thin>\n" : "!<arch>\n";
  if (has_symbols_) {
    w.bytes += Header(sym64_ ? "/SYM64/" : "/", symtab_size);
    const uint64_t base = w.bytes.size();
    w.Put(base, claimed_count_.value_or(symbols_.size()), width);
    for (size_t i = 0; i < symbols_.size(); ++i) {
      uint64_t member = symbols_[i].second;
      uint64_t offset = member == kPastTheEnd      ? total + 1000
                        : member == kInsideAMember ? headers_.at(0) + 61
                                                   : headers_.at(member);
      w.Put(base + width * (i + 1), offset, width);
    }
    w.bytes += names;
    Pad(&w.bytes);
  }
  if (!table.empty()) {
    w.bytes += Header("//", table.size());
    w.bytes += table;
    Pad(&w.bytes);
  }
  for (size_t i = 0; i < members_.size(); ++i) {
    w.bytes += Header(field[i], members_[i].size);
    if (thin_) continue;
    w.bytes += members_[i].data;
    Pad(&w.bytes);
  }
  return w.bytes;
}

}  // namespace rocm_audit::testing
