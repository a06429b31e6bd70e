#include "engine/package_inputs.h"

#include <sys/stat.h>

#include <algorithm>
#include <numeric>
#include <string_view>
#include <thread>

#include "audit/fs/path.h"
#include "audit/support/parallel.h"
#include "audit/unpack/merge_tree.h"
#include "audit/unpack/package_format.h"
#include "engine/upload_inputs.h"

namespace rocm_audit {

bool UnpackPackageInputs(std::vector<std::string>* paths, bool* relocatable, const UnpackLimits& limits,
                         unsigned jobs, PackageInputs* out, std::string* error) {
  std::vector<std::string> kept;
  std::vector<std::pair<std::string, PackageFormat>> packages;
  // An upload (.changes) stands for the binary packages it lists (engine/upload_inputs.h).
  const std::vector<std::string> expanded =
      ExpandUploads(*paths, jobs ? jobs : std::thread::hardware_concurrency(), &out->problems);
  for (const std::string& p : expanded) {
    struct stat st;
    std::optional<PackageFormat> format;
    if (stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode)) format = DetectPackageFile(p);
    if (format)
      packages.emplace_back(p, *format);
    else
      kept.push_back(p);
  }
  if (packages.empty()) {
    *paths = std::move(kept);  // as given, but for an upload that left nothing to audit
    return true;
  }
  out->dir = std::make_unique<PrivateDir>(error);
  if (out->dir->path().empty()) return false;
  // The same set gives the same tree and the same findings in any order: each package is
  // unpacked into a directory of its own (in parallel), within a budget of its own, from
  // its own bytes; then the trees are moved into the set's one tree in the order of their
  // file names (which of two packages shipping one path keeps it does not depend on the
  // command line or the timing). The report lists them as given.
  std::vector<size_t> order(packages.size());
  std::iota(order.begin(), order.end(), 0);
  auto name_of = [&](size_t i) {
    return std::pair(BaseName(packages[i].first), std::string_view(packages[i].first));
  };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return name_of(a) < name_of(b); });
  const std::string tree = out->dir->path() + "/tree";
  std::vector<std::string> staged(packages.size());
  std::vector<UnpackedPackage> unpacked(packages.size());
  std::vector<std::vector<UnpackProblem>> problems(packages.size());
  for (size_t i = 0; i < packages.size(); ++i) {
    staged[i] = packages.size() == 1 ? tree : out->dir->path() + "/" + std::to_string(i);
    mkdir(staged[i].c_str(), 0700);
  }
  ParallelFor(packages.size(), jobs ? jobs : std::thread::hardware_concurrency(), [&](size_t i) {
    UnpackBudget budget{limits};
    unpacked[i] = UnpackPackage(packages[i].first, packages[i].second, staged[i], &budget, &problems[i]);
  });
  if (packages.size() > 1) mkdir(tree.c_str(), 0700);
  out->packages.resize(packages.size());
  for (size_t i : order) {
    UnpackedPackage& u = unpacked[i];
    if (staged[i] != tree) {
      MoveTreeInto(staged[i], tree, u.file, &problems[i]);
      RemoveTree(staged[i]);
    }
    for (UnpackProblem& p : problems[i]) out->problems.push_back(std::move(p));
    *relocatable |= RelocatableByDesign(u.format);
    out->packages[i] = {u.file, std::string(PackageFormatName(u.format)), u.name, u.version, u.architecture,
                        std::move(u.depends), std::move(u.members), std::move(u.provides),
                        // deb-control(5): a package without Source: is its own source.
                        u.format == PackageFormat::kDeb ? (u.source.empty() ? u.name : u.source) : "",
                        u.source_version, std::move(u.conflicts), std::move(u.breaks), std::move(u.replaces)};
  }
  out->tree = tree;
  kept.push_back(tree);
  *paths = std::move(kept);
  return true;
}

}  // namespace rocm_audit
