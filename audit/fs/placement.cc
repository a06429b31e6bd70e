#include "audit/fs/placement.h"

#include "audit/fs/path.h"

namespace rocm_audit {

std::string_view StorePathOf(std::string_view path) {
  // Nix and Guix: /nix/store/<32-character hash>-<name>, /gnu/store/<hash>-<name>.
  for (std::string_view store : {"/nix/store/", "/gnu/store/"}) {
    if (!path.starts_with(store)) continue;
    size_t end = path.find('/', store.size());
    size_t length = (end == std::string_view::npos ? path.size() : end) - store.size();
    if (length > 33 && path[store.size() + 32] == '-') return path.substr(0, store.size() + length);
  }
  // Spack's install tree: <spack>/opt/spack/<platform>/<compiler>/<name>-<version>-<hash>.
  size_t spack = path.find("/opt/spack/");
  if (spack == std::string_view::npos) return {};
  size_t at = spack + 11;
  for (int level = 0; level < 3; ++level) {
    size_t slash = path.find('/', at);
    if (slash == std::string_view::npos) return level == 2 && at < path.size() ? path : std::string_view();
    if (slash == at) return {};
    at = slash + 1;
  }
  return path.substr(0, at - 1);
}

Placement PlaceAbsolutePath(std::string_view absolute, const std::vector<std::string>& audited,
                            const RootedFs& fs) {
  std::string host = fs.HostPath(absolute);
  for (const std::string& a : audited)
    if (IsUnderDirectory(absolute, a) || IsUnderDirectory(host, a)) return Placement::kAudited;
  if (!StorePathOf(absolute).empty()) return Placement::kStore;
  // With --root, a directory the installed system has is where the loader will look; one
  // it lacks ties the tree to something no package audited here provides.
  if (fs.has_root() && fs.Resolve(host)) return Placement::kSystem;
  return Placement::kOutside;
}

}  // namespace rocm_audit
