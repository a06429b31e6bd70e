#include "diff/base_places.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string_view>

#include "diff/installed_layout.h"

namespace rocm_audit {
namespace {

// The directory of the base below which a side's file at `side_prefix` (below its input) is
// installed when the base holds it at `base_prefix`: "usr" for "usr" and "" (a side given
// at its usr/), "" for "opt/rocm" and "opt/rocm" (a side given at its root); none when
// `base_prefix` does not end with `side_prefix`.
std::optional<std::string> DirectoryAbove(std::string_view base_prefix, std::string_view side_prefix) {
  if (side_prefix.empty()) return std::string(base_prefix);
  if (base_prefix == side_prefix) return std::string();
  if (base_prefix.size() > side_prefix.size() && base_prefix.ends_with(side_prefix) &&
      base_prefix[base_prefix.size() - side_prefix.size() - 1] == '/')
    return std::string(base_prefix.substr(0, base_prefix.size() - side_prefix.size() - 1));
  return std::nullopt;
}

}  // namespace

std::set<std::string> ReplacedInBase(const std::vector<std::string>& installed,
                                     const std::vector<std::vector<std::string>>& sides) {
  std::set<std::string> own;
  std::vector<InstalledPlace> base(installed.size());
  for (size_t i = 0; i < installed.size(); ++i)
    base[i] = SplitAtPrefix(std::string_view(installed[i]).substr(1));
  for (const std::vector<std::string>& side : sides) {
    // The side's prefixes (below its input) of each place it ships.
    std::map<std::string, std::set<std::string>, std::less<>> prefixes;
    for (const std::string& path : side) {
      InstalledPlace p = SplitAtPrefix(path);
      prefixes[std::move(p.place)].insert(std::move(p.prefix));
    }
    std::map<std::string, size_t> found_below;  // base directory -> the side's files found there
    for (const InstalledPlace& b : base)
      if (auto it = prefixes.find(b.place); it != prefixes.end())
        for (const std::string& prefix : it->second)
          if (auto dir = DirectoryAbove(b.prefix, prefix)) ++found_below[*dir];
    if (found_below.empty()) continue;
    // The first by name of those holding the most: a report is the same at every run.
    const std::string dir =
        std::max_element(found_below.begin(), found_below.end(), [](const auto& a, const auto& b) {
          return a.second < b.second;
        })->first;
    for (size_t i = 0; i < installed.size(); ++i)
      if (auto it = prefixes.find(base[i].place); it != prefixes.end())
        for (const std::string& prefix : it->second)
          if (DirectoryAbove(base[i].prefix, prefix) == dir) own.insert(installed[i]);
  }
  return own;
}

}  // namespace rocm_audit
