#include "diff/file_identity.h"

#include "diff/installed_layout.h"

namespace rocm_audit {
namespace {

std::string_view BaseName(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string IdentityOf(const FileFacts& f) {
  if (f.cmake && !f.cmake->package.empty())
    return "cmake:" + f.cmake->package + "/" + std::string(BaseName(f.path));
  if (!f.elf || f.elf->machine == "amdgpu") return "";
  if (!f.elf->soname.empty()) return "soname:" + f.elf->soname;
  return f.kind == "elf-shared-library" ? "library:" + std::string(BaseName(f.path)) : "";
}

}  // namespace

std::map<std::string, std::string, std::less<>> FileIdentities(const Side& side) {
  std::map<std::string, std::string, std::less<>> out;
  for (const FileFacts& f : side.files)
    if (std::string identity = IdentityOf(f); !identity.empty())
      out.emplace(PlaceBelowPrefix(f.path), std::move(identity));
  return out;
}

}  // namespace rocm_audit
