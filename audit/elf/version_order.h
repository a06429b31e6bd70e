// Symbol version names as families with a numeric version: GLIBCXX_3.4.30 is family
// "GLIBCXX_", version 3.4.30. Names without a numeric tail (GLIBC_PRIVATE,
// CXXABI_FLOAT128) belong to no family and are never "the newest" of one.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rocm_audit {

struct VersionName {
  std::string_view family;      ///< "GLIBCXX_"
  std::vector<unsigned> parts;  ///< {3, 4, 30}
};

/// nullopt for names without a numeric tail.
std::optional<VersionName> ParseVersionName(std::string_view name);

/// The highest of `defined` in the family of `wanted`, by version order (GLIBC_2.36 after
/// GLIBC_2.4); "" when `defined` has none of that family.
std::string NewestOfFamily(const std::vector<std::string_view>& defined, std::string_view wanted);

}  // namespace rocm_audit
