// The JSON report read back (audit/model/report_reader.h) and its two users: a --baseline
// (policy/baseline.cc) and a side of `diff` (diff/side.cc). The same bytes are tried as all
// three. A report it reads is never deeper than the limit it documents.
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "audit/model/report_reader.h"
#include "checks/registry.h"
#include "diff/side.h"
#include "policy/baseline.h"

namespace {

// The depth of `j`, iteratively (what the reader promises bounds the recursion of others).
size_t Depth(const nlohmann::json& j) {
  size_t deepest = 0;
  std::vector<std::pair<const nlohmann::json*, size_t>> stack = {{&j, 0}};
  while (!stack.empty()) {
    auto [value, depth] = stack.back();
    stack.pop_back();
    if (!value->is_structured()) continue;
    deepest = std::max(deepest, depth + 1);
    for (const nlohmann::json& child : *value) stack.push_back({&child, depth + 1});
  }
  return deepest;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace rocm_audit;
  static const std::vector<Rule> rules = [] {
    std::vector<Rule> out;
    for (const Rule* r : AllRules()) out.push_back(*r);
    return out;
  }();
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string error;
  nlohmann::json report;
  if (ReadJsonReport(text, &report, &error) && Depth(report) > kMaxReportDepth) __builtin_trap();
  std::vector<std::string> keys;
  (void)ReadBaselineKeys(text, rules, &keys, &error);
  Side side;
  (void)SideOfJsonReport("report.json", text, &side, &error);
  return 0;
}
