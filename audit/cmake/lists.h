// CMake's list and boolean conventions: a list is a ';'-separated string (a "\;" or a ';'
// inside square brackets does not separate), and a handful of constants are false.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rocm_audit {

/// Elements of a list; empty elements are kept only when `keep_empty`.
std::vector<std::string> SplitList(std::string_view list, bool keep_empty = false);
std::string JoinList(const std::vector<std::string>& items, std::string_view separator = ";");

/// 1, ON, YES, TRUE, Y, or a non-zero number (case-insensitive).
bool IsTrueConstant(std::string_view s);
/// What cmValue::IsOff calls off: "", 0, OFF, NO, FALSE, N, IGNORE, NOTFOUND, or ending in
/// -NOTFOUND (case-insensitive); no number is read ($<BOOL:x> is 0 exactly for these).
bool IsOff(std::string_view s);
/// IsOff, or a number equal to zero (if(<constant>)).
bool IsFalseConstant(std::string_view s);

/// The variables find_package() sets for the version a version file gave (PACKAGE_VERSION),
/// as cmFindPackageCommand::StoreVersionFound: "<prefix>" itself (absent when `version` is
/// ""), and _MAJOR, _MINOR, _PATCH, _TWEAK and _COUNT, read as sscanf("%u.%u.%u.%u").
std::vector<std::pair<std::string, std::string>> FoundVersionVariables(const std::string& prefix,
                                                                       std::string_view version);

std::string ToUpper(std::string_view s);
std::string ToLower(std::string_view s);
/// ASCII letters compared in either case, as find_package() compares <name>* entries.
bool StartsWithNoCase(std::string_view s, std::string_view prefix);
bool LessNoCase(std::string_view a, std::string_view b);
/// Whether `s` holds `word` in either case.
bool ContainsNoCase(std::string_view s, std::string_view word);

}  // namespace rocm_audit
