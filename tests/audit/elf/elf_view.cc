#include "tests/audit/elf/elf_view.h"

#include <algorithm>

namespace rocm_audit {

std::vector<std::string> SplitSearchPath(const std::string& list) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t colon = list.find(':', start);
    out.push_back(list.substr(start, colon == std::string::npos ? std::string::npos : colon - start));
    if (colon == std::string::npos) return out;
    start = colon + 1;
  }
}

std::string Join(const std::vector<std::string>& parts) {
  std::string s;
  for (const auto& e : parts) s += (s.empty() ? "" : ",") + e;
  return "[" + s + "]";
}

ElfView ViewOf(const ElfModel& model) {
  ElfView v;
  v.needed.assign(model.needed.begin(), model.needed.end());
  v.soname = model.soname;
  v.has_runpath = model.has_runpath;
  v.runpath = model.runpath;
  v.rpath = model.rpath;
  for (uint32_t i = 0; i < model.symbol_count(); ++i) {
    DynamicSymbol s = model.SymbolAt(i);
    ElfView::Symbol out;
    out.name = std::string(model.NameOf(s));
    out.binding = s.binding;
    out.visibility = s.visibility;
    out.section_index = s.section_index;
    out.has_version = s.has_version;
    out.version_index = s.version_index;
    out.version_hidden = s.version_hidden;
    auto it = model.version_names.find(s.version_index);
    if (s.has_version && s.version_index > 1 && it != model.version_names.end()) out.version = it->second;
    v.symbols.push_back(std::move(out));
  }
  v.defined_versions.assign(model.defined_versions.begin(), model.defined_versions.end());
  for (const NeededVersion& n : model.needed_versions)
    v.needed_versions.push_back(std::string(n.library) + ":" + std::string(n.version));
  return v;
}

std::vector<Difference> Diff(const std::string& path, const ElfView& ours, const ElfView& theirs) {
  std::vector<Difference> out;
  auto differ = [&](const char* kind, const std::string& a, const std::string& b, int64_t symbol = -1) {
    if (a != b) out.push_back(Difference{path, kind, symbol, a, b});
  };
  differ("DT_NEEDED", Join(ours.needed), Join(theirs.needed));
  differ("DT_SONAME", ours.soname, theirs.soname);
  differ("DT_RUNPATH", ours.has_runpath ? Join(ours.runpath) : "none",
         theirs.has_runpath ? Join(theirs.runpath) : "none");
  if (!ours.has_runpath && !theirs.has_runpath) differ("DT_RPATH", Join(ours.rpath), Join(theirs.rpath));

  // Symbols, in .dynsym order; when the counts differ, the entries both read.
  differ("symbol count", std::to_string(ours.symbols.size()), std::to_string(theirs.symbols.size()));
  size_t common = std::min(ours.symbols.size(), theirs.symbols.size());
  for (size_t i = 0; i < common; ++i) {
    const ElfView::Symbol& a = ours.symbols[i];
    const ElfView::Symbol& b = theirs.symbols[i];
    auto sym = [&](const char* kind, const std::string& x, const std::string& y) {
      differ(kind, x, y, static_cast<int64_t>(i));
    };
    sym("symbol name", a.name, b.name);
    sym("symbol binding", std::to_string(a.binding), std::to_string(b.binding));
    sym("symbol visibility", std::to_string(a.visibility), std::to_string(b.visibility));
    sym("symbol section index", std::to_string(a.section_index), std::to_string(b.section_index));
    if (a.has_version != b.has_version) {
      sym("symbol has version", a.has_version ? "yes" : "no", b.has_version ? "yes" : "no");
      continue;
    }
    if (!a.has_version) continue;
    sym("symbol version index", std::to_string(a.version_index), std::to_string(b.version_index));
    sym("symbol version hidden", a.version_hidden ? "yes" : "no", b.version_hidden ? "yes" : "no");
    sym("symbol version name", a.version, b.version);
  }

  differ("VERDEF", Join(ours.defined_versions), Join(theirs.defined_versions));
  differ("VERNEED", Join(ours.needed_versions), Join(theirs.needed_versions));
  return out;
}

}  // namespace rocm_audit
