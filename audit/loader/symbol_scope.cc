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

bool ObjectDefines(const ElfModel& object, const SymbolReference& ref) {
  bool any = false, match = false;
  int versioned_candidates = 0;
  object.ForEachDefinition(ref.name, [&](uint32_t index) {
    any = true;
    if (match || !object.has_version_table) return;  // no version information: accept
    const DynamicSymbol def = object.SymbolAt(index);
    uint16_t ndx = def.version_index;
    if (ref.version) {
      auto name = object.version_names.find(ndx);
      bool same_name = name != object.version_names.end() && name->second == *ref.version;
      // l_versions[ndx].hash is 0 only for indices without a version entry (0 and 1).
      bool unversioned_def = name == object.version_names.end();
      match = same_name || (!ref.hidden && unversioned_def && !def.version_hidden);
    } else if (ndx < 3) {
      match = true;  // DL_LOOKUP flags of relocation processing: cut-off 3
    } else if (!def.version_hidden) {
      ++versioned_candidates;
    }
  });
  if (!any) return false;
  return !object.has_version_table || match || versioned_candidates == 1;
}

int FindDefinition(const std::vector<const ElfModel*>& scope, const SymbolReference& ref) {
  for (size_t i = 0; i < scope.size(); ++i)
    if (ObjectDefines(*scope[i], ref)) return static_cast<int>(i);
  return -1;
}

}  // namespace rocm_audit
