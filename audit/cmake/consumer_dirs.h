// The consumer's own directories, which a package config sees through CMAKE_BINARY_DIR,
// CMAKE_CURRENT_BINARY_DIR, PROJECT_BINARY_DIR and their source counterparts: find_package()
// runs the config in the consumer's directory scope. They are stand-ins, in no installed
// tree: what a config generates there (ament_cmake_core runs a script that writes
// ${CMAKE_CURRENT_BINARY_DIR}/.../templates.cmake, then includes it) is the consumer's
// configure's own output, never written here, and never a file the package must ship.
#pragma once

#include <string_view>

namespace rocm_audit {

inline constexpr std::string_view kConsumerBinaryDir = "/rocm-audit-consumer/build";
inline constexpr std::string_view kConsumerSourceDir = "/rocm-audit-consumer/source";

/// Whether `path` (absolute, normalised) is in the consumer's stand-in build or source tree.
inline bool InConsumerTree(std::string_view path) {
  auto below = [&](std::string_view dir) {
    return path.starts_with(dir) && (path.size() == dir.size() || path[dir.size()] == '/');
  };
  return below(kConsumerBinaryDir) || below(kConsumerSourceDir);
}

}  // namespace rocm_audit
