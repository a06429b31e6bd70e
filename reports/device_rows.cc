#include "reports/device_rows.h"

#include <map>
#include <set>

#include "audit/model/target_order.h"

namespace rocm_audit {
namespace {

bool Standalone(const FileFacts& f) {
  return f.kind == "offload-bundle" || f.kind == "compressed-offload-bundle" ||
         (f.elf && f.elf->machine == "amdgpu");
}

}  // namespace

std::vector<DeviceRow> GroupDeviceFiles(const Report& report, bool per_file) {
  std::vector<DeviceRow> rows;
  std::map<std::string, size_t> row_of;
  for (const FileFacts& f : report.files) {
    if (!f.device) continue;
    std::string place = f.path;
    if (!per_file && Standalone(f) && f.path.rfind('/') != std::string::npos)
      place = f.path.substr(0, f.path.rfind('/') + 1);
    auto [it, fresh] = row_of.try_emplace(place, rows.size());
    if (fresh) rows.push_back({place, {}});
    rows[it->second].files.push_back(&f);
  }
  return rows;
}

std::optional<Served> RowServes(const DeviceRow& row, std::string_view processor) {
  std::optional<Served> best;
  for (const FileFacts* f : row.files)
    for (const ServedProcessor& s : f->device->served)
      if (s.processor == processor && (!best || s.how < *best)) best = s.how;
  return best;
}

std::vector<std::string> ServedProcessors(const std::vector<DeviceRow>& rows) {
  std::set<std::string> seen;
  for (const DeviceRow& row : rows)
    for (const FileFacts* f : row.files)
      for (const ServedProcessor& s : f->device->served) seen.insert(s.processor);
  std::vector<std::string> out(seen.begin(), seen.end());
  SortTargetIds(&out);
  return out;
}

}  // namespace rocm_audit
