#include "checks/arch_data_coverage.h"

#include <set>

#include "audit/arch_data.h"
#include "audit/rooted_fs.h"

namespace rocm_audit {

nlohmann::ordered_json CheckArchDataCoverage(const WalkedFile& file, const DeviceInventory& inventory,
                                             FindingSink& sink) {
  std::optional<ArchDataDir> data = FindArchData(file.path);
  if (!data) return nullptr;
  std::set<std::string> code;
  for (const ArchOffer& o : inventory.Offers())
    if (!IsGenericProcessor(o.target.processor)) code.insert(o.target.processor);
  if (code.empty()) return nullptr;  // a stub or host-only build: nothing to pair with data
  nlohmann::ordered_json out = {{"library", data->library},
                                {"dir", data->dir.empty() ? nlohmann::ordered_json(nullptr)
                                                          : nlohmann::ordered_json(data->dir)},
                                {"processors", std::vector<std::string>(data->processors.begin(),
                                                                        data->processors.end())}};
  for (const std::string& p : code) {
    if (data->processors.count(p)) continue;
    Finding f = MakeFinding(file.path, "missing-arch-data");
    if (data->dir.empty()) {
      std::string searched;
      for (const auto& s : data->searched) searched += (searched.empty() ? "" : ", ") + s;
      f.message = data->library + " has device code for " + p + " but no Tensile data directory (searched " +
                  searched + "); every GEMM fails with rocblas_status 14 at run time";
    } else {
      f.message = data->library + " has device code for " + p + " but " + data->dir +
                  " has no data for it (no TensileLibrary*_" + p + "* / *" + p + "*.co|.hsaco)";
    }
    f.hint = "build and install Tensile data for " + p + " (same GPU_TARGETS as the library)";
    f.fields["arch"] = p;
    f.fields["library"] = data->library;
    f.fields["data_dir"] = data->dir;
    f.fields["missing"] = "data";
    sink.Add(std::move(f));
  }
  for (const std::string& p : data->processors) {
    if (code.count(p) || !ProcessorByName(p)) continue;
    Finding f = MakeFinding(file.path, "missing-arch-data");
    f.message = data->dir + " has " + data->library + " data for " + p +
                " but the library has no device code for it: the data is dead weight, or the "
                "library was built for fewer targets than Tensile";
    f.hint = "build the library and Tensile for the same GPU_TARGETS";
    f.fields["arch"] = p;
    f.fields["library"] = data->library;
    f.fields["data_dir"] = data->dir;
    f.fields["missing"] = "code";
    sink.Add(std::move(f));
  }
  return out;
}

}  // namespace rocm_audit
