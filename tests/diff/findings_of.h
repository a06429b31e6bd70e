// The findings of one check in a comparison's report, for the diff tests to assert on.
#pragma once

#include <string_view>
#include <vector>

#include "audit/model/report.h"

namespace rocm_audit {

inline std::vector<const Finding*> FindingsOf(const Report& report, std::string_view check) {
  std::vector<const Finding*> out;
  for (const Finding& f : report.findings)
    if (f.check == check) out.push_back(&f);
  return out;
}

}  // namespace rocm_audit
