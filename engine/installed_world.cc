#include "engine/installed_world.h"

#include <algorithm>

#include <sys/stat.h>

#include <optional>
#include <set>

#include "audit/fs/open_file.h"
#include "audit/fs/path.h"
#include "audit/fs/rooted_fs.h"
#include "audit/unpack/package_database.h"
#include "checks/debian_depends.h"

namespace rocm_audit {
namespace {

// dpkg and rpm install a package's members at the same paths under /: such a package's
// tree is a layer of the system. Wheels, conda packages and bare archives are relocatable
// or have no one place; they stay PATHs, layered only over --root layers given.
bool InstalledAtRoot(const InputPackage& p) { return p.format == "deb" || p.format == "rpm"; }

// "libnuma1 (>= 2.0.11), libc6:any | libc6.1" -> libnuma1, libc6, libc6.1
std::vector<std::string> DependedNames(const std::vector<std::string>& depends) {
  std::vector<std::string> out;
  for (const std::string& d : depends) {
    size_t start = 0;
    while (start <= d.size()) {
      size_t bar = d.find('|', start);
      if (bar == std::string::npos) bar = d.size();
      std::string one = d.substr(start, bar - start);
      one.erase(0, one.find_first_not_of(" \t"));
      one = one.substr(0, one.find_first_of(" \t(:["));
      if (!one.empty()) out.push_back(one);
      start = bar + 1;
    }
  }
  return out;
}

// What each .deb of an installed set says and ships, for the checks' hints.
void DescribeSet(const PackageInputs& packages, const std::vector<InputPackage>& given,
                 CheckOptions* checks) {
  for (const InputPackage& p : given) {
    if (p.format != "deb" && p.format != "rpm") continue;
    PackageOfSet& of = checks->packages.emplace_back();
    of.name = p.name;
    of.depends = DependedNames(p.depends);
    of.provides = DependedNames(p.provides);
    for (const std::string& m : p.members) of.files.insert(packages.tree + "/" + m);
  }
}

// A dpkg status file past this is not read (Debian 12 with 3,000 packages: 4 MB): the
// version is then not named.
constexpr size_t kMaxStatusFile = size_t(64) << 20;

bool SharedObjectName(std::string_view name) {
  return name.starts_with("lib") && (name.ends_with(".so") || name.find(".so.") != std::string_view::npos);
}

}  // namespace

void DescribeReplacedCopies(AuditRequest* request) {
  for (const std::string& layer : RootedFs(request->roots).layers()) {
    const std::string prefix = layer == "/" ? "" : layer;
    std::optional<std::string> status;
    for (const PackageName& p : request->installing) {
      std::unordered_set<std::string> owned = InstalledFilesOf(layer, {p});
      ReplacedCopy copy{p.name, "", {}, {}};
      for (const std::string& path : std::set<std::string>(owned.begin(), owned.end())) {
        struct stat st;
        if (!SharedObjectName(BaseName(path)) || lstat((prefix + path).c_str(), &st) != 0 ||
            !S_ISREG(st.st_mode))
          continue;
        copy.libraries.push_back(prefix + path);
        copy.installed.push_back(path);
      }
      if (copy.libraries.empty()) continue;
      if (!status)
        status = ReadRegularFile(prefix + "/var/lib/dpkg/status", kMaxStatusFile, PastCap::kRefused,
                                 Links::kRefuse)
                     .text.value_or("");
      copy.version = InstalledVersion(*status, p.name);
      request->checks.replaced.push_back(std::move(copy));
    }
  }
}

bool ArrangeInstalledWorld(const PackageInputs& packages, AuditRequest* request, ReportInputs* inputs,
                           std::string* error) {
  const bool at_root = std::any_of(packages.packages.begin(), packages.packages.end(), InstalledAtRoot);
  std::vector<std::string>& roots = request->roots;
  if (request->no_base && !roots.empty()) {
    *error = "--no-base and --root exclude each other: the --root layers are the base";
    return false;
  }
  if (!at_root && request->siblings.empty()) {
    if (request->no_base) {
      *error = "--no-base applies to .deb or .rpm PATHs or --sibling trees, and there are none";
      return false;
    }
    if (packages.dir && !roots.empty()) roots.insert(roots.begin(), packages.tree);
    return true;
  }
  std::vector<std::string> top;
  if (at_root) {
    top.push_back(packages.tree);
  } else if (!roots.empty()) {
    top.push_back(roots.front());
    roots.erase(roots.begin());
  } else {
    *error = "--sibling needs a top layer to sit below: package PATHs or a --root";
    return false;
  }
  if (roots.empty() && !request->no_base) roots.push_back("/");
  inputs->installed_world = true;
  inputs->siblings = RootedFs(request->siblings).layers();
  inputs->base = roots.empty() ? std::vector<std::string>() : RootedFs(roots).layers();
  if (roots.size() == 1 && inputs->base.empty()) inputs->base = {"/"};
  std::vector<std::string> layers = top;
  layers.insert(layers.end(), request->siblings.begin(), request->siblings.end());
  layers.insert(layers.end(), roots.begin(), roots.end());
  roots = std::move(layers);
  for (const InputPackage& p : packages.packages)
    if (p.format == "deb" && !p.name.empty()) request->installing.push_back({p.name, p.architecture});
  if (at_root) DescribeSet(packages, packages.packages, &request->checks);
  for (const PackageName& p : request->installing) inputs->replacing.push_back(p.name);
  return true;
}

}  // namespace rocm_audit
