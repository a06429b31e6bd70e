#include "audit/gpu/arch_data.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "audit/fs/rooted_fs.h"

namespace rocm_audit {
namespace {

namespace fs = std::filesystem;

bool IsDir(const std::string& path) {
  std::error_code ec;
  return fs::is_directory(path, ec);
}

// Where each library looks, relative to its own directory: rocBLAS's tensile_host.cpp
// order, plus Debian's versioned rocblas/<version>/library; hipBLASLt's hipblaslt/library.
std::vector<std::string> Candidates(const std::string& lib_dir, bool rocblas, const std::string& base) {
  std::vector<std::string> out;
  if (rocblas) {
    out.push_back(lib_dir + "/../../Tensile/library");
    out.push_back(lib_dir + "/library");
    out.push_back(lib_dir + "/../rocblas/library");
    out.push_back(lib_dir + "/rocblas/library");
    // Debian: rocblas/<version>/library, the version being the library's own (4.4.1 for
    // librocblas.so.4.4); take the one whose version the file name starts with, else any.
    std::error_code ec;
    std::vector<std::string> versioned;
    for (const auto& d : fs::directory_iterator(lib_dir + "/rocblas", ec)) {
      std::string v = d.path().filename().string();
      if (IsDir(d.path().string() + "/library")) versioned.push_back(v);
    }
    std::sort(versioned.begin(), versioned.end());
    std::string so_version = base.substr(std::min(base.size(), std::string("librocblas.so.").size()));
    for (const auto& v : versioned)
      if (!so_version.empty() && v.starts_with(so_version))
        out.push_back(lib_dir + "/rocblas/" + v + "/library");
    for (const auto& v : versioned) out.push_back(lib_dir + "/rocblas/" + v + "/library");
  } else {
    out.push_back(lib_dir + "/hipblaslt/library");
    out.push_back(lib_dir + "/../hipblaslt/library");
  }
  return out;
}

}  // namespace

std::vector<std::string> ProcessorsInName(std::string_view name) {
  std::vector<std::string> out;
  size_t at = 0;
  while ((at = name.find("gfx", at)) != std::string_view::npos) {
    size_t end = at + 3;
    while (end < name.size() && std::isxdigit(static_cast<unsigned char>(name[end])) &&
           !std::isupper(static_cast<unsigned char>(name[end])))
      ++end;
    if (end > at + 3) out.emplace_back(name.substr(at, end - at));
    at = end;
  }
  return out;
}

std::optional<ArchDataDir> FindArchData(const std::string& library_path) {
  std::string base(BaseName(library_path));
  bool rocblas = base.starts_with("librocblas.so");
  bool hipblaslt = base.starts_with("libhipblaslt.so");
  if (!rocblas && !hipblaslt) return std::nullopt;
  ArchDataDir out;
  out.library = rocblas ? "rocBLAS" : "hipBLASLt";
  for (const std::string& c : Candidates(DirName(library_path), rocblas, base)) {
    std::string dir = NormalizePath(c);
    out.searched.push_back(dir);
    if (!IsDir(dir)) continue;
    out.dir = dir;
    break;
  }
  if (out.dir.empty()) return out;
  std::error_code ec;
  for (const auto& d : fs::directory_iterator(out.dir, ec)) {
    std::string name = d.path().filename().string();
    bool subdir = IsDir(d.path().string());
    // Newer layouts: library/<arch>/... (a directory named after the processor).
    if (subdir) {
      if (name.starts_with("gfx")) {
        auto procs = ProcessorsInName(name);
        if (!procs.empty()) out.processors.insert(procs.front());
      }
      continue;
    }
    ++out.files;
    for (const std::string& p : ProcessorsInName(name)) out.processors.insert(p);
  }
  return out;
}

}  // namespace rocm_audit
