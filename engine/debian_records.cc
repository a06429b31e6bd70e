#include "engine/debian_records.h"

namespace rocm_audit {

std::vector<DebControlRecords> DebianRecordsOf(const std::vector<std::string>& inputs) {
  std::vector<DebControlRecords> out;
  for (const std::string& input : inputs) {
    DebControlRecords r;
    std::string error;
    if (ReadDebControlRecords(input, kControlAreaLimits, &r, &error)) out.push_back(std::move(r));
  }
  return out;
}

}  // namespace rocm_audit
