#include "audit/fs/file_kind.h"

#include <algorithm>
#include <cctype>

namespace rocm_audit {
namespace {

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool EndsWith(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

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
  if (!EndsWith(name, ".cmake")) return false;
  return EndsWith(name, "Config.cmake") || EndsWith(name, "-config.cmake") ||
         EndsWith(name, "ConfigVersion.cmake") || EndsWith(name, "-config-version.cmake") ||
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
  if (StartsWith(head,
                 "\x7f"
                 "ELF"))
    return FileKind::kElf;
  if (StartsWith(head, "!<arch>\n") || StartsWith(head, "!<thin>\n")) return FileKind::kArArchive;
  if (StartsWith(head, "__CLANG_OFFLOAD_BUNDLE__")) return FileKind::kOffloadBundle;
  if (StartsWith(head, "CCOB")) return FileKind::kCompressedBundle;
  if (IsCMakePackageName(file_name)) return FileKind::kCMakePackage;
  // Only names the link editor would look at can be linker scripts (lib*.so, lib*.a).
  if (StartsWith(file_name, "lib") &&
      (file_name.find(".so") != std::string_view::npos || EndsWith(file_name, ".a")) &&
      LooksLikeLinkerScript(head))
    return FileKind::kLinkerScript;
  return FileKind::kOther;
}

}  // namespace rocm_audit
