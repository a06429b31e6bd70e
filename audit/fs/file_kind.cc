#include "audit/fs/file_kind.h"

#include <algorithm>
#include <cctype>

namespace rocm_audit {
namespace {

// GNU ld accepts any text file of commands where a library is expected; the ones that
// ship in library directories start with a comment and use GROUP/INPUT/OUTPUT_FORMAT.
bool LooksLikeLinkerScript(std::string_view head) {
  if (head.empty()) return false;
  for (unsigned char c : head)
    if (c == 0 || (c < 0x20 && !std::isspace(c))) return false;
  for (std::string_view kw : {"GROUP", "INPUT", "OUTPUT_FORMAT", "SEARCH_DIR", "/* GNU ld script"})
    if (head.find(kw) != std::string_view::npos) return true;
  return false;
}

bool IsCMakePackageName(std::string_view name) {
  if (!name.ends_with(".cmake")) return false;
  return name.ends_with("Config.cmake") || name.ends_with("-config.cmake") ||
         name.ends_with("ConfigVersion.cmake") || name.ends_with("-config-version.cmake") ||
         name.find("Targets") != std::string_view::npos || name.find("-targets") != std::string_view::npos;
}

}  // namespace

std::string_view FileKindName(FileKind kind) {
  switch (kind) {
    case FileKind::kElf: return "elf";
    case FileKind::kArArchive: return "ar-archive";
    case FileKind::kLinkerScript: return "linker-script";
    case FileKind::kOffloadBundle: return "offload-bundle";
    case FileKind::kCompressedBundle: return "compressed-offload-bundle";
    case FileKind::kCMakePackage: return "cmake-package";
    case FileKind::kOther: return "other";
  }
  return "other";
}

FileKind ClassifyFile(std::string_view file_name, std::string_view head) {
  if (head.starts_with("\x7f"
                       "ELF"))
    return FileKind::kElf;
  if (head.starts_with("!<arch>\n") || head.starts_with("!<thin>\n")) return FileKind::kArArchive;
  if (head.starts_with("__CLANG_OFFLOAD_BUNDLE__")) return FileKind::kOffloadBundle;
  if (head.starts_with("CCOB")) return FileKind::kCompressedBundle;
  if (IsCMakePackageName(file_name)) return FileKind::kCMakePackage;
  // Only names the link editor would look at can be linker scripts (lib*.so, lib*.a).
  if (file_name.starts_with("lib") &&
      (file_name.find(".so") != std::string_view::npos || file_name.ends_with(".a")) &&
      LooksLikeLinkerScript(head))
    return FileKind::kLinkerScript;
  return FileKind::kOther;
}

}  // namespace rocm_audit
