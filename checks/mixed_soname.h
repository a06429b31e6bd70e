// mixed-soname: two major versions of one library (libamdhip64.so.5 and .so.6). In one
// load closure both get mapped and their symbols interpose: an error. Across the scanned
// tree it means one component was built against a stale major: a warning.
#pragma once

#include <string>
#include <vector>

#include "checks/check_context.h"

namespace rocm_audit {

/// "libamdhip64.so.6" -> "libamdhip64"; "" when the name has no ".so.MAJOR" part.
std::string SonameBase(std::string_view soname);

void CheckClosureSonames(const FileContext& ctx, FindingSink& sink);

struct TreeObject {
  std::string path;
  std::vector<std::string> needed;
  std::string soname;
};
void CheckTreeSonames(const std::vector<TreeObject>& objects, FindingSink& sink);

}  // namespace rocm_audit
