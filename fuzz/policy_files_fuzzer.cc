// The files a user hands the policy: a waiver file (--suppress) and a baseline report
// (--baseline), each parsed against every rule the tool has. The same bytes are tried as both.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "checks/registry.h"
#include "policy/baseline.h"
#include "policy/waiver_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace rocm_audit;
  static const std::vector<Rule> rules = [] {
    std::vector<Rule> out;
    for (const Rule* r : AllRules()) out.push_back(*r);
    return out;
  }();
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string error;
  std::vector<Waiver> waivers;
  (void)ParseWaivers(text, "waivers.txt", rules, &waivers, &error);
  std::vector<std::string> keys;
  (void)ReadBaselineKeys(text, rules, &keys, &error);
  return waivers.size() + keys.size() == SIZE_MAX;
}
