// A side's shared libraries by SONAME: how the comparison matches a library of OLD with its
// successor in NEW, whatever path either is installed at.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "diff/side.h"

namespace rocm_audit {

class SharedLibraries {
 public:
  explicit SharedLibraries(const Side& side);

  /// Host ELF files with a SONAME, in the side's order.
  const std::vector<const FileFacts*>& All() const { return all_; }
  std::vector<const FileFacts*> BySoname(std::string_view soname) const;
  /// The first file with `soname`, or nullptr.
  const FileFacts* First(std::string_view soname) const;
  /// A library whose SONAME has the same name before ".so" ("libamdhip64.so.5" and
  /// "libamdhip64.so.6"), or nullptr.
  const FileFacts* SameStem(std::string_view soname) const;

 private:
  std::vector<const FileFacts*> all_;
  std::multimap<std::string, const FileFacts*, std::less<>> by_soname_;
};

/// "libx.so.1" -> "libx.so"; a SONAME without ".so" is its own stem.
std::string_view SonameStem(std::string_view soname);
/// The SONAME's major version (audit/fs/soname.h): "1" of "libx.so.1.2"; empty without one.
std::string_view SonameMajor(std::string_view soname);
/// The SONAME a bump gives `soname`: its major plus one ("libx.so.1" -> "libx.so.2"); "" when
/// it has no numeric major.
std::string NextSoname(std::string_view soname);
/// Whether the file's DT_NEEDED names `soname`.
bool Links(const ElfFacts& elf, std::string_view soname);

}  // namespace rocm_audit
