// A private directory for the targets that need files (the CMake evaluator reads a config
// from an installed tree, the unpacker writes members): made once per fuzzing process,
// removed at exit. It is never destroyed as a string, because the handler that removes it
// runs after the destructors of statics made later (a destroyed string was a use after free).
#pragma once

#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <string>

inline const std::string& FuzzDir() {
  static const std::string& dir = *new std::string([] {
    std::string pattern = (std::filesystem::temp_directory_path() / "rocm-audit-fuzz.XXXXXX").string();
    std::string made = mkdtemp(pattern.data());
    std::atexit([] { std::filesystem::remove_all(FuzzDir()); });
    return made;
  }());
  return dir;
}
