// Where an absolute path an installed file names (an RPATH/RUNPATH entry, later a CMake
// config's prefix) lands, judged as the installed system would see it: in the audited
// paths, in the installed system given by --root, in another package's store path (Nix,
// Guix, Spack: a dependency), or nowhere the audit knows.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "audit/fs/rooted_fs.h"

namespace rocm_audit {

enum class Placement {
  kAudited,  ///< inside one of the audited paths
  kSystem,   ///< with --root: a path the installed system has
  kStore,    ///< inside a store path (/nix/store/<hash>-name, /gnu/store/..., Spack's opt/spack/...)
  kOutside,  ///< none of these: the tree is tied to a place outside itself
};

/// The store path `path` lies in ("/nix/store/<hash>-name"), or "" when it is in none.
std::string_view StorePathOf(std::string_view path);

/// `absolute` is a normalised absolute path of the installed system; `audited` are the host
/// paths of the audited inputs.
Placement PlaceAbsolutePath(std::string_view absolute, const std::vector<std::string>& audited,
                            const RootedFs& fs);

}  // namespace rocm_audit
