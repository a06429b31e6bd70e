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

/// check_match's verdict on one definition of the looked-up name in an object that has a
/// version table (glibc elf/dl-lookup.c): it binds, it does not, or it is a versioned
/// candidate an unversioned reference binds when it is its object's only one.
enum class DefinitionMatch { kNo, kYes, kCandidate };
/// `version`: the name of the definition's version index, null for indices 0 and 1 (no
/// version entry); `hidden`: bit 15 of its .gnu.version entry; `index`: the entry with that
/// bit masked off. Shared by the loader and by `diff`, which judges a library's successor by
/// the same rule (diff/symbol_match.h).
DefinitionMatch MatchDefinition(const SymbolReference& ref, const std::string_view* version, bool hidden,
                                uint16_t index);

/// Whether `object` provides a definition `ref` would bind to.
bool ObjectDefines(const ElfModel& object, const SymbolReference& ref);

/// Index in `scope` of the first object that defines `ref`, or -1.
int FindDefinition(const std::vector<const ElfModel*>& scope, const SymbolReference& ref);

}  // namespace rocm_audit
