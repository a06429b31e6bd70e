// Symbol lookup over a global scope with glibc's matching rules (elf/dl-lookup.c,
// check_match and do_lookup_x), including symbol versions:
//  - a versioned reference binds to a definition of that version name; in an object
//    without version information it binds to any definition; an unversioned
//    (index 0/1) definition also satisfies it unless either side is hidden;
//  - an unversioned reference binds to an unversioned or base-version definition, or to
//    the single non-hidden versioned definition an object has.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "audit/elf/elf_model.h"

namespace rocm_audit {

struct SymbolReference {
  std::string_view name;
  const std::string_view* version = nullptr;  ///< null for an unversioned reference
  bool hidden = false;
};

/// The reference an undefined dynamic symbol of `model` makes.
SymbolReference ReferenceOf(const ElfModel& model, const DynamicSymbol& symbol);

/// Whether `object` provides a definition `ref` would bind to.
bool ObjectDefines(const ElfModel& object, const SymbolReference& ref);

/// Index in `scope` of the first object that defines `ref`, or -1.
int FindDefinition(const std::vector<const ElfModel*>& scope, const SymbolReference& ref);

}  // namespace rocm_audit
