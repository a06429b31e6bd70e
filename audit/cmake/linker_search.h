// What the consumer's linker does with a link-interface item that names no target: CMake
// passes a plain name (xsimd's "xtl") or "-l<name>" to the linker as -l<name>
// (cmComputeLinkInformation::AddUserItem), and GNU ld looks for lib<name>.so, then
// lib<name>.a, in each directory it searches. The consumer's build names no -L of its own for
// an imported target, so those are the compiler driver's and ld's built-in directories of the
// installed world.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "audit/cmake/installed_files.h"

namespace rocm_audit {

/// The name of the library `item` asks the linker for (-l<name>), or "" when `item` is not
/// one: a target (with "::"), a path, a flag other than -l, a generator expression, a file
/// name such as libfoo.so (CMake links those otherwise).
std::string LinkedLibraryName(const std::string& item);

/// Debian x86-64's directories for -l without -L, in order: gcc's own (every installed
/// version's: the consumer's compiler is unknown), the multiarch and lib directories it adds,
/// then ld's SEARCH_DIRs (`ld --verbose`).
std::vector<std::string> LinkerDefaultDirectories(const InstalledFiles& files);

/// Where the linker finds -l`name` in `dirs` (lib<name>.so before lib<name>.a in each), or
/// "" when nowhere.
std::string FindLinkedLibrary(const std::string& name, const std::vector<std::string>& dirs,
                              const InstalledFiles& files);

}  // namespace rocm_audit
