// The variables that give each target a consumer adds its default for a property CMake
// checks: CMAKE_<LANG>_STANDARD initializes <LANG>_STANDARD, and CMake's generate step
// rejects a level it does not know ("CXX_STANDARD is set to invalid value ''"). A package
// config runs in its consumer's scope, so what it leaves there is the consumer's default
// (Drogon's FindFilesystem.cmake restores CMAKE_CXX_STANDARD to "" where it was unset).
#pragma once

#include <algorithm>
#include <array>
#include <string_view>

namespace rocm_audit {

/// The languages a plain consumer's project() enables, and their variables.
inline constexpr std::array<std::string_view, 2> kConsumerStandardVariables = {"CMAKE_C_STANDARD",
                                                                               "CMAKE_CXX_STANDARD"};

inline bool IsConsumerTargetDefault(std::string_view name) {
  return std::find(kConsumerStandardVariables.begin(), kConsumerStandardVariables.end(), name) !=
         kConsumerStandardVariables.end();
}

/// A level CMake 3.25 accepts for the standard `variable` sets (cmStandardLevelResolver's
/// lists; checked with cmake 3.25: C 90 99 11 17 23, C++ 98 11 14 17 20 23 26).
inline bool IsKnownStandardLevel(std::string_view variable, std::string_view level) {
  constexpr std::array<std::string_view, 5> kC = {"90", "99", "11", "17", "23"};
  constexpr std::array<std::string_view, 7> kCXX = {"98", "11", "14", "17", "20", "23", "26"};
  if (variable == "CMAKE_C_STANDARD") return std::find(kC.begin(), kC.end(), level) != kC.end();
  return std::find(kCXX.begin(), kCXX.end(), level) != kCXX.end();
}

}  // namespace rocm_audit
