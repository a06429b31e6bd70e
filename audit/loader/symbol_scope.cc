#include "audit/loader/symbol_scope.h"

namespace rocm_audit {

SymbolReference ReferenceOf(const ElfModel& model, const DynamicSymbol& symbol) {
  SymbolReference ref;
  ref.name = model.NameOf(symbol);
  // Indices 0 (local) and 1 (global) carry no version name.
  if (symbol.has_version && symbol.version_index >= 2) {
    auto it = model.version_names.find(symbol.version_index);
    if (it != model.version_names.end()) ref.version = &it->second;
    ref.hidden = symbol.version_hidden;
  }
  return ref;
}

DefinitionMatch MatchDefinition(const SymbolReference& ref, const std::string_view* version, bool hidden,
                                uint16_t index) {
  if (ref.version) {
    // l_versions[ndx].hash is 0 only for indices without a version entry (0 and 1).
    if (version && *version == *ref.version) return DefinitionMatch::kYes;
    return !ref.hidden && !version && !hidden ? DefinitionMatch::kYes : DefinitionMatch::kNo;
  }
  if (index < 3) return DefinitionMatch::kYes;  // DL_LOOKUP flags of relocation processing: cut-off 3
  return hidden ? DefinitionMatch::kNo : DefinitionMatch::kCandidate;
}

namespace {

bool ObjectDefines(const ElfModel& object, const SymbolReference& ref, const ElfModel::LookupName& lookup) {
  bool any = false, match = false;
  int versioned_candidates = 0;
  object.ForEachDefinition(lookup, [&](uint32_t index) {
    any = true;
    if (match || !object.has_version_table) return;  // no version information: accept
    const DynamicSymbol def = object.SymbolAt(index);
    auto name = object.version_names.find(def.version_index);
    const std::string_view* version = name == object.version_names.end() ? nullptr : &name->second;
    const DefinitionMatch m = MatchDefinition(ref, version, def.version_hidden, def.version_index);
    match = m == DefinitionMatch::kYes;
    versioned_candidates += m == DefinitionMatch::kCandidate;
  });
  if (!any) return false;
  return !object.has_version_table || match || versioned_candidates == 1;
}

}  // namespace

bool ObjectDefines(const ElfModel& object, const SymbolReference& ref) {
  return ObjectDefines(object, ref, ElfModel::Lookup(ref.name));
}

// The name is hashed once for the whole scope, as ld.so hashes it once per lookup.
int FindDefinition(const std::vector<const ElfModel*>& scope, const SymbolReference& ref) {
  const ElfModel::LookupName lookup = ElfModel::Lookup(ref.name);
  for (size_t i = 0; i < scope.size(); ++i)
    if (ObjectDefines(*scope[i], ref, lookup)) return static_cast<int>(i);
  return -1;
}

}  // namespace rocm_audit
