#include "reports/urgency_order.h"

#include <algorithm>
#include <map>

namespace rocm_audit {
namespace {

// Higher is more urgent: a counted finding by its severity, an accepted one below them all.
int Urgency(const Finding& f) { return f.suppressed ? -1 : static_cast<int>(f.severity); }

}  // namespace

std::vector<FileFindings> FindingsByUrgency(const std::vector<Finding>& findings,
                                            const std::function<bool(const Finding&)>& shown) {
  std::vector<FileFindings> files;
  std::map<std::string, size_t> index;  // file -> its place in `files` (first appearance)
  for (const Finding& f : findings) {
    if (!shown(f)) continue;
    auto [at, added] = index.try_emplace(f.file, files.size());
    if (added) files.push_back({f.file, {}});
    files[at->second].findings.push_back(&f);
  }
  auto worst = [](const FileFindings& g) { return Urgency(*g.findings.front()); };
  for (FileFindings& g : files)
    std::stable_sort(g.findings.begin(), g.findings.end(),
                     [](const Finding* a, const Finding* b) { return Urgency(*a) > Urgency(*b); });
  std::stable_sort(files.begin(), files.end(),
                   [&](const FileFindings& a, const FileFindings& b) { return worst(a) > worst(b); });
  return files;
}

}  // namespace rocm_audit
