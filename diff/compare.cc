#include "diff/compare.h"

namespace rocm_audit {

std::vector<Finding> CompareSides(const Side& old_side, const Side& new_side) {
  FindingSink out;
  CompareLibraries(old_side, new_side, out);
  CompareProcessors(old_side, new_side, out);
  CompareCMakePackages(old_side, new_side, out);
  CompareFindings(old_side, new_side, out);
  return std::move(out.findings);
}

}  // namespace rocm_audit
