#include "diff/compare.h"

#include "diff/base_places.h"

#include <string>
#include <vector>

namespace rocm_audit {

std::vector<Finding> CompareSides(const Side& old_side, const Side& new_side, BaseConsumers& base) {
  FindingSink out;
  std::vector<std::vector<std::string>> shipped(2);
  for (const FileFacts& f : old_side.files) shipped[0].push_back(f.path);
  for (const FileFacts& f : new_side.files) shipped[1].push_back(f.path);
  base.Exclude([shipped = std::move(shipped)](const std::vector<std::string>& installed) {
    return ReplacedInBase(installed, shipped);
  });
  CompareLibraries(old_side, new_side, base, out);
  AddDeclaredVersions(old_side, &out.findings);
  CompareDebianRecords(old_side, new_side, out);
  CompareProcessors(old_side, new_side, base, out);
  CompareCMakePackages(old_side, new_side, out);
  CompareFindings(old_side, new_side, out);
  return std::move(out.findings);
}

}  // namespace rocm_audit
