// Debian's own records of a library package's ABI, as dpkg-gensymbols and dh_makeshlibs write
// them into the control area of the binary package: DEBIAN/symbols (deb-symbols(5)) lists each
// exported symbol of each library with the package version that first provided it, and
// DEBIAN/shlibs (deb-shlibs(5)) names the package that provides each SONAME. Read as dpkg's
// Dpkg::Shlibs::SymbolFile reads them; the comparison is in debian_symbols_diff.cc.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rocm_audit {

/// One symbol line: ` [(tags)]name@VERSION minver [id]`, or a `#MISSING: version#` line
/// (a symbol dpkg-gensymbols found lost and kept in the file, deprecated).
struct DebSymbol {
  std::string name;         ///< "hipFree@hip_4.2", "keep@Base" (unversioned); (c++): demangled
  std::string minver;       ///< the package version that first provided it
  bool optional = false;    ///< (optional): may disappear at any time
  bool cxx = false;         ///< (c++): `name` is a demangled C++ name
  bool symver = false;      ///< (symver): `name` is a version node, standing for its symbols
  bool regex = false;       ///< (regex): a pattern
  bool other_arch = false;  ///< (arch=...) and the arch-bits/arch-endian tags: not judged here
  bool deprecated = false;  ///< #MISSING: ...#
};

/// A library's block: `soname main-dependency-template`, `| alternative`s, `* Field: value`s
/// and its symbol lines.
struct DebSymbolsLibrary {
  std::string soname;
  std::string package;  ///< the first word of the main dependency template ("librocrand1")
  std::vector<DebSymbol> symbols;
};

/// The blocks of a symbols file. Comments (`#` lines other than #MISSING) and symbol lines
/// before any library are skipped; a line that fits no form is skipped too, as dpkg reads
/// only what it understands into the symbol table.
std::vector<DebSymbolsLibrary> ParseDebSymbols(std::string_view text);

/// A shlibs line: `[type:] library soversion dependencies` (deb-shlibs(5)).
struct DebShlib {
  std::string type;  ///< "" for a shared library, "udeb", ...
  std::string library, soversion;
  std::string package;  ///< the first word of the dependencies ("librocrand1")
};
std::vector<DebShlib> ParseDebShlibs(std::string_view text);

/// `nm -D`'s name of an export ("f@@V", "f@V", "f") as a symbols file writes it ("f@V",
/// "f@Base").
std::string DebSymbolName(std::string_view export_name);

/// Symbols dpkg-gensymbols never lists (Dpkg::Shlibs::SymbolFile's blacklist: linker-made
/// section and table boundaries, per architecture; __aeabi_*, .gomp_critical_user_*).
bool DpkgNeverLists(std::string_view name);

}  // namespace rocm_audit
