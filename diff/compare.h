// The comparison of two audited sides (side.h): what the update from OLD to NEW broke, as
// findings of the comparison rules (engine/comparison_rules.h), each naming the files it hits:
// files of NEW by their path below NEW, files of the base NEW is installed over
// (Side::base) by their absolute installed path. Each kind of break is one function, in a file of its own.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "audit/model/finding.h"
#include "diff/side.h"
#include "engine/base_consumers.h"

namespace rocm_audit {

/// Every finding, in this order: libraries (symbols-removed, soname-changed,
/// library-removed), device code
/// (processors-lost), CMake (cmake-interface-removed, cmake-dependency-dropped), audit
/// findings (new-finding, fixed-finding, side-unreadable).
/// `base`: the base NEW is installed over (made of new_side.base; its scan may be under way).
std::vector<Finding> CompareSides(const Side& old_side, const Side& new_side, BaseConsumers& base);

/// Shared libraries matched by SONAME (a SONAME that changed: by its name before ".so").
/// `base`: who else links a changed library (base_consumers.h).
void CompareLibraries(const Side& old_side, const Side& new_side, BaseConsumers& base, FindingSink& out);
/// Device code and Tensile/hipBLASLt data: per library (by SONAME) and per directory.
void CompareProcessors(const Side& old_side, const Side& new_side, BaseConsumers& base, FindingSink& out);
/// Package configs matched by package name: their own interface, and the dependencies whose
/// targets they no longer bring.
void CompareCMakePackages(const Side& old_side, const Side& new_side, FindingSink& out);
/// Whether `f` says its audit could not read its file, or a table of it (malformed-file,
/// unreadable-file): what that side would have found in the file is unknown.
bool SaysUnread(const Finding& f);
/// The places below their prefix (installed_layout.h) of the files `side` could not read.
std::set<std::string> UnreadPlaces(const Side& side);
/// Debian's ABI records of NEW's .deb packages (DEBIAN/symbols, DEBIAN/shlibs) against its
/// libraries and OLD's packages (debian_symbols_diff.cc).
void CompareDebianRecords(const Side& old_side, const Side& new_side, FindingSink& out);
/// symbols-removed findings say, in `declared`, the package version OLD's DEBIAN/symbols
/// declared each removed symbol with.
void AddDeclaredVersions(const Side& old_side, std::vector<Finding>* findings);
/// Audit findings matched by key; those of a file one side could not read are not compared.
void CompareFindings(const Side& old_side, const Side& new_side, FindingSink& out);

}  // namespace rocm_audit
