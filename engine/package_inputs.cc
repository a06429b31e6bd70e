#include "engine/package_inputs.h"

#include <sys/stat.h>

#include <algorithm>
#include <numeric>
#include <string_view>

#include "audit/fs/path.h"
#include "audit/unpack/package_format.h"

namespace rocm_audit {

bool UnpackPackageInputs(std::vector<std::string>* paths, std::vector<std::string>* roots, bool* relocatable,
                         const UnpackLimits& limits, PackageInputs* out, std::string* error) {
  std::vector<std::string> kept;
  std::vector<std::pair<std::string, PackageFormat>> packages;
  for (const std::string& p : *paths) {
    struct stat st;
    std::optional<PackageFormat> format;
    if (stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode)) format = DetectPackageFile(p);
    if (format)
      packages.emplace_back(p, *format);
    else
      kept.push_back(p);
  }
  if (packages.empty()) return true;
  out->dir = std::make_unique<PrivateDir>(error);
  if (out->dir->path().empty()) return false;
  // The same set gives the same tree and the same findings in any order: packages are
  // unpacked in the order of their file names (which of two packages shipping one path
  // keeps it does not depend on the command line), and each within a budget of its own,
  // from its own bytes. The report lists them as given.
  std::vector<size_t> order(packages.size());
  std::iota(order.begin(), order.end(), 0);
  auto name_of = [&](size_t i) {
    return std::pair(BaseName(packages[i].first), std::string_view(packages[i].first));
  };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return name_of(a) < name_of(b); });
  out->packages.resize(packages.size());
  for (size_t i : order) {
    const auto& [file, format] = packages[i];
    UnpackBudget budget{limits};
    UnpackedPackage u = UnpackPackage(file, format, out->dir->path(), &budget, &out->problems);
    *relocatable |= RelocatableByDesign(u.format);
    out->packages[i] = {u.file,
                        std::string(PackageFormatName(u.format)),
                        u.name,
                        u.version,
                        std::move(u.depends),
                        std::move(u.members)};
  }
  kept.push_back(out->dir->path());
  *paths = std::move(kept);
  if (!roots->empty()) roots->insert(roots->begin(), out->dir->path());
  return true;
}

}  // namespace rocm_audit
