#include "reports/dashboard_paths.h"

#include <llvm/Support/xxhash.h>

#include <cstdio>
#include <filesystem>

namespace rocm_audit {

namespace fs = std::filesystem;

std::string BaseDirectory(const std::string& base_dir) {
  std::string text = AbsolutePath(base_dir.empty() ? "." : base_dir);
  if (text.empty() || text.back() != '/') text += '/';
  return text;
}

std::string AbsolutePath(const std::string& file) {
  std::error_code ec;
  return fs::absolute(file, ec).lexically_normal().string();
}

std::optional<std::string> PathBelowBase(const std::string& file, const std::string& base) {
  fs::path relative = fs::path(AbsolutePath(file)).lexically_relative(base);
  if (relative.empty() || *relative.begin() == ".." || relative == ".") return std::nullopt;
  return relative.string();
}

std::string Fingerprint(const Finding& f) {
  // xxh3 is a fixed algorithm: the same key hashes the same on every machine and release.
  uint64_t hash = llvm::xxh3_64bits(f.key.empty() ? f.check + "|" + f.file : f.key);
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(hash));
  return buf;
}

}  // namespace rocm_audit
