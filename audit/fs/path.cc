#include "audit/fs/path.h"

namespace rocm_audit {

std::string NormalizePath(std::string_view path) {
  std::string out;
  std::vector<std::string_view> kept;
  for (std::string_view p : PathComponents(path)) {
    if (p == ".") continue;
    if (p == "..") {
      if (!kept.empty() && kept.back() != "..")
        kept.pop_back();
      else if (path.empty() || path[0] != '/')
        kept.push_back(p);
      continue;
    }
    kept.push_back(p);
  }
  bool absolute = !path.empty() && path[0] == '/';
  for (const auto& p : kept) {
    if (!out.empty() || absolute) out += '/';
    out += p;
  }
  if (out.empty()) return absolute ? "/" : ".";
  return out;
}

std::vector<std::string_view> PathComponents(std::string_view path) {
  std::vector<std::string_view> out;
  for (size_t i = 0; i < path.size();) {
    size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    if (j > i) out.push_back(path.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

bool IsUnderDirectory(std::string_view path, std::string_view dir) {
  while (!dir.empty() && dir.back() == '/') dir.remove_suffix(1);
  if (dir.empty()) return true;  // "/" (or the host layer "") contains everything
  return path.substr(0, dir.size()) == dir && (path.size() == dir.size() || path[dir.size()] == '/');
}

std::string_view KernelFileSystemOf(std::string_view path) {
  for (std::string_view fs : {"/proc", "/sys"})
    if (IsUnderDirectory(path, fs)) return fs;
  return {};
}

std::string DirName(std::string_view path) {
  size_t slash = path.rfind('/');
  if (slash == std::string_view::npos) return ".";
  if (slash == 0) return "/";
  return std::string(path.substr(0, slash));
}

}  // namespace rocm_audit
