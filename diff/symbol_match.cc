#include "diff/symbol_match.h"

#include "audit/loader/symbol_scope.h"

namespace rocm_audit {

SymbolName ParseSymbolName(std::string_view symbol) {
  const size_t at = symbol.find('@');
  if (at == std::string_view::npos) return {symbol, "", false};
  std::string_view version = symbol.substr(at + 1);
  const bool is_default = version.starts_with('@');
  if (is_default) version.remove_prefix(1);
  return {symbol.substr(0, at), version, !is_default};
}

bool IsVersionNodeMark(std::string_view symbol) {
  const SymbolName s = ParseSymbolName(symbol);
  return !s.version.empty() && s.name == s.version;
}

std::string ReferenceTo(std::string_view exported) {
  const SymbolName s = ParseSymbolName(exported);
  if (s.version.empty()) return std::string(s.name);
  return std::string(s.name) + "@" + std::string(s.version);
}

ExportTable::ExportTable(const std::vector<std::string>& exports, const std::vector<std::string>& imports) {
  for (const std::string& e : exports) {
    const SymbolName s = ParseSymbolName(e);
    by_name_[s.name].push_back(s);
    if (!s.version.empty()) versions_.insert(s.version);
  }
  has_version_table_ = !versions_.empty();
  for (const std::string& i : imports) has_version_table_ |= !ParseSymbolName(i).version.empty();
}

bool ExportTable::Binds(std::string_view reference) const {
  const SymbolName r = ParseSymbolName(reference);
  auto it = by_name_.find(r.name);
  if (it == by_name_.end()) return false;
  // No version table (l_versyms null): check_match takes any definition for an unversioned
  // reference; for a versioned one whose verneed names this very library it asserts
  // ("version->filename == NULL || ! _dl_name_match_p (version->filename, map)",
  // elf/dl-lookup.c) and ld.so stops: the program does not start.
  if (!has_version_table_) return r.version.empty();
  // dl-version.c: a version the library no longer defines is fatal ("version `V' not found");
  // a library with no version definitions at all only draws a warning.
  if (!r.version.empty() && !versions_.empty() && !versions_.count(r.version)) return false;
  SymbolReference ref;
  ref.name = r.name;
  if (!r.version.empty()) ref.version = &r.version;
  int candidates = 0;
  for (const SymbolName& def : it->second) {
    // An unversioned name is of index 0 or 1; a versioned one is taken past the cut-off.
    const std::string_view* version = def.version.empty() ? nullptr : &def.version;
    const DefinitionMatch m = MatchDefinition(ref, version, def.hidden, def.version.empty() ? 1 : 3);
    if (m == DefinitionMatch::kYes) return true;
    candidates += m == DefinitionMatch::kCandidate;
  }
  return candidates == 1;
}

}  // namespace rocm_audit
