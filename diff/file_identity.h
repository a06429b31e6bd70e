// What a file of a side is, as the two sides of a diff match their audit findings: a shared
// library by its SONAME (the name every consumer loads it by: libhsa-runtime64.so.1.5.0 and
// .so.1.15.0, libelf-0.188.so and libelf-0.196.so are one library when their SONAME is one),
// by its file name when it has none; a CMake package config by its package and file name
// (lib/cmake/hip-6.2/hip-config.cmake is lib/cmake/hip/hip-config.cmake); any other file by
// its place below the install prefix (installed_layout.h). Where each side's files came from
// (a tree, a .deb of a set, another package of the set) makes no difference.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "diff/side.h"

namespace rocm_audit {

/// Each file of `side` whose identity is not its place: its place -> "soname:libx.so.1",
/// "library:libx.so", "cmake:hip/hip-config.cmake".
std::map<std::string, std::string, std::less<>> FileIdentities(const Side& side);

}  // namespace rocm_audit
