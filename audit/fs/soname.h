// A shared library's name, a SONAME or a file name, taken apart into its family and its
// version: "libfoo.so.1.2" is the library "libfoo" (the stem "libfoo.so", what the link
// editor opens for -lfoo) at version "1.2", major "1"; "libfoo.so" has no version. This is
// the one parser of that rule: the walk (which names look like libraries), the mixed-soname
// check (two majors of one family), the unresolved-library hint (Debian's package name) and
// diff (a library's successor) all call it. Here, not in audit/elf or audit/loader, because
// the walk reads file names before any ELF is opened and audit/fs is below both.
#pragma once

#include <optional>
#include <string_view>

namespace rocm_audit {

struct SonameParts {
  std::string_view family;   ///< "libfoo", never empty
  std::string_view stem;     ///< "libfoo.so"
  std::string_view version;  ///< "1.2"; empty for "libfoo.so"
  /// The version up to its first '.': "1" of "1.2"; empty when there is no version.
  std::string_view Major() const { return version.substr(0, version.find('.')); }
  /// The version is digits and dots only, as ldconfig's names are ("6.4.3", not "6-rc1").
  bool NumericVersion() const;
};

/// The parts of `name` split at its first ".so" that ends the name or is followed by '.'
/// (Debian Policy §8.1: the SONAME "libfoo.so.1" makes the package libfoo1). nullopt when
/// there is no such ".so", or nothing before it.
std::optional<SonameParts> ParseSoname(std::string_view name);

}  // namespace rocm_audit
