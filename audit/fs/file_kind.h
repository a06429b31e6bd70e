// Classifies a file by its content (magic bytes), never by its name, except for CMake
// package files, which are plain text and only recognisable by name.
#pragma once

#include <string_view>

namespace rocm_audit {

enum class FileKind {
  kElf,               ///< refined to executable/shared/relocatable once parsed
  kArArchive,         ///< "!<arch>\n" (static library) or thin archive
  kLinkerScript,      ///< GNU ld script, e.g. libc.so as text
  kOffloadBundle,     ///< "__CLANG_OFFLOAD_BUNDLE__"
  kCompressedBundle,  ///< "CCOB"
  kCMakePackage,      ///< *Config.cmake, *-config.cmake, *Targets*.cmake, ...
  kOther,
};

std::string_view FileKindName(FileKind kind);

/// `head` is the first bytes of the file (at least 64 when the file is that long).
FileKind ClassifyFile(std::string_view file_name, std::string_view head);

}  // namespace rocm_audit
