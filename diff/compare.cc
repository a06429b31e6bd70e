#include "diff/compare.h"

#include <set>

namespace rocm_audit {

std::vector<Finding> CompareSides(const Side& old_side, const Side& new_side, BaseConsumers& base) {
  FindingSink out;
  std::set<std::string> own;
  for (const Side* side : {&old_side, &new_side})
    for (const FileFacts& f : side->files) own.insert(f.path);
  base.Exclude(std::move(own));
  CompareLibraries(old_side, new_side, base, out);
  CompareProcessors(old_side, new_side, base, out);
  CompareCMakePackages(old_side, new_side, out);
  CompareFindings(old_side, new_side, out);
  return std::move(out.findings);
}

}  // namespace rocm_audit
