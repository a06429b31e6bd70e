// A library's exports as `diff` holds them (ElfFacts::exports: `name`, `name@@VERSION`,
// `name@VERSION`, as nm -D names them) asked what ld.so asks of them: would a reference bind
// here? The answer is the loader's own rule (audit/loader/symbol_scope.h, glibc
// elf/dl-lookup.c check_match) on the definitions the names describe, and the version check
// of elf/dl-version.c: a reference to a version the library defines no more fails to load, and
// a versioned reference to a library without a version table stops ld.so.
//
// What the names do not say: the index of a versioned definition. glibc binds an unversioned
// reference to a definition of index 2 (the first node after the base) even when the library
// has other versioned ones; here a versioned definition is past that cut-off, and an
// unversioned reference binds to the only non-hidden versioned one as glibc does.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace rocm_audit {

/// One name of ElfFacts::exports or ::imports, cut at its '@' or "@@".
struct SymbolName {
  std::string_view name;
  std::string_view version;  ///< "" when unversioned
  bool hidden = false;       ///< `name@VERSION` of a definition: not the default version
};
SymbolName ParseSymbolName(std::string_view symbol);

/// The absolute symbol GNU ld defines for each version node, named as the node
/// (`VER_2@@VER_2`): no function or object, only the node's mark.
bool IsVersionNodeMark(std::string_view symbol);

/// The reference a program linked against a library makes to one of its exports: the
/// version it bound, default or not ("bar@@V" and "bar@V" -> "bar@V"), or none.
std::string ReferenceTo(std::string_view exported);

class ExportTable {
 public:
  /// A library's ElfFacts::exports and ::imports: a versioned name among either says it has
  /// a version table (.gnu.version), which decides how a versioned reference is judged.
  ExportTable(const std::vector<std::string>& exports, const std::vector<std::string>& imports);

  /// Whether `reference` (`name` or `name@VERSION`, made by a program linked against this
  /// library's SONAME, so a version it names is one of this library's) binds to a definition
  /// here and finds its version defined.
  bool Binds(std::string_view reference) const;
  /// The version nodes defined: every version an export names.
  const std::set<std::string_view>& Versions() const { return versions_; }

 private:
  std::unordered_map<std::string_view, std::vector<SymbolName>> by_name_;
  std::set<std::string_view> versions_;
  bool has_version_table_ = false;
};

}  // namespace rocm_audit
