#include "engine/package_inputs.h"

#include <sys/stat.h>

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
  UnpackBudget budget{limits};
  for (const auto& [file, format] : packages) {
    UnpackedPackage u = UnpackPackage(file, format, out->dir->path(), &budget, &out->problems);
    *relocatable |= RelocatableByDesign(u.format);
    out->packages.push_back({u.file, std::string(PackageFormatName(u.format)), u.name, u.version,
                             std::move(u.depends), std::move(u.members)});
  }
  kept.push_back(out->dir->path());
  *paths = std::move(kept);
  if (!roots->empty()) roots->insert(roots->begin(), out->dir->path());
  return true;
}

}  // namespace rocm_audit
