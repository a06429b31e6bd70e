#include "diff/installed_layout.h"

#include <array>
#include <vector>

#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringRef.h>

#include "diff/side.h"

namespace rocm_audit {
namespace {

// GNUInstallDirs' directories below the prefix (bindir ... datarootdir, sysconfdir,
// localstatedir, sharedstatedir), and the other spellings of the library directory.
constexpr std::array<std::string_view, 12> kInstallationDirs = {
    "bin", "sbin", "libexec", "lib", "lib64", "lib32", "libx32", "include", "share", "etc", "var", "com"};

bool IsInstallationDir(std::string_view name) {
  for (std::string_view d : kInstallationDirs)
    if (name == d) return true;
  return false;
}

// Every field, empty ones kept.
std::vector<std::string_view> Split(std::string_view text, char separator) {
  llvm::SmallVector<llvm::StringRef, 8> fields;
  llvm::StringRef(text.data(), text.size()).split(fields, separator);
  return {fields.begin(), fields.end()};
}

// A Debian multiarch tuple (dpkg-architecture's DEB_HOST_MULTIARCH): cpu-gnu..., or
// cpu-{linux,kfreebsd,hurd}-{gnu,musl}... ("x86_64-linux-gnu", "arm-linux-gnueabihf",
// "i386-gnu").
bool IsMultiarchTuple(std::string_view name) {
  const std::vector<std::string_view> parts = Split(name, '-');
  for (std::string_view p : parts)
    if (p.empty()) return false;
  auto abi = [](std::string_view p) { return p.starts_with("gnu") || p.starts_with("musl"); };
  if (parts.size() == 2) return abi(parts[1]);
  return parts.size() == 3 && (parts[1] == "linux" || parts[1] == "kfreebsd" || parts[1] == "hurd") &&
         abi(parts[2]);
}

}  // namespace

InstalledPlace SplitAtPrefix(std::string_view path) {
  const std::vector<std::string_view> parts = Split(path, '/');
  size_t first = 0;
  while (first < parts.size() && !IsInstallationDir(parts[first])) ++first;
  // The last component is the file's own name, never a directory of the layout.
  if (first + 1 >= parts.size()) return {"", std::string(path)};
  InstalledPlace out;
  for (size_t i = 0; i < first; ++i) out.prefix += (i ? "/" : "") + std::string(parts[i]);
  for (size_t i = first; i < parts.size(); ++i) {
    std::string_view part = parts[i];
    if (i == first && part == "lib64") part = "lib";
    if (i == first + 1 && parts[first] == "lib" && i + 1 < parts.size() && IsMultiarchTuple(part)) continue;
    out.place += (out.place.empty() ? "" : "/") + std::string(part);
  }
  return out;
}

std::string PlaceBelowPrefix(std::string_view path) { return SplitAtPrefix(path).place; }

std::string KeyBelowPrefix(std::string_view key) { return KeyByIdentity(key, {}); }

std::string KeyByIdentity(std::string_view key,
                          const std::map<std::string, std::string, std::less<>>& identity) {
  auto named = [&](std::string_view path) {
    std::string place = PlaceBelowPrefix(InstalledPath(path));
    auto it = identity.find(place);
    return it == identity.end() ? place : it->second;
  };
  const std::vector<std::string_view> parts = Split(key, '|');
  std::string out(parts[0]);
  for (size_t i = 1; i < parts.size(); ++i) {
    std::string_view part = parts[i];
    std::string name;
    if (i > 1) {
      // field=value; a value naming no relative path is left as it is.
      const size_t eq = part.find('=');
      if (eq == std::string_view::npos) {
        out += "|" + std::string(part);
        continue;
      }
      name = std::string(part.substr(0, eq + 1));
      part.remove_prefix(eq + 1);
      if (part.starts_with('/') || part.find('/') == std::string_view::npos) {
        out += "|" + name + std::string(part);
        continue;
      }
    }
    out += "|" + name + named(part);
  }
  return out;
}

}  // namespace rocm_audit
