// --tree: one file's load closure drawn as a tree, as libtree draws it: each DT_NEEDED
// under the object that names it, in DT_NEEDED order, with how the loader found it (the
// RUNPATH or RPATH of which object, --library-path, ld.so.conf, the default directories);
// names not found and versions missing are marked; an object already drawn is folded.
#pragma once

#include <string>

#include "audit/model/file_facts.h"

namespace rocm_audit {

/// "" when the file has no closure (not an executable or shared library ld.so loads).
std::string RenderClosureTree(const FileFacts& file);

}  // namespace rocm_audit
