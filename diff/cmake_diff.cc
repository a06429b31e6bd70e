// cmake-interface-removed: package configs of OLD and NEW matched by package name; the
// imported targets and components a consumer could use that are gone, and the dependencies
// now asked for at a higher version.
#include <algorithm>
#include <cstdlib>
#include <set>

#include "checks/comparison_rules.h"
#include "diff/compare.h"

namespace rocm_audit {
namespace {

const FileFacts* Package(const Side& side, const std::string& name) {
  for (const FileFacts& f : side.files)
    if (f.cmake && f.cmake->package == name) return &f;
  return nullptr;
}

std::vector<std::string> Missing(const std::vector<std::string>& before,
                                 const std::vector<std::string>& after) {
  std::vector<std::string> out;
  for (const std::string& x : before)
    if (std::find(after.begin(), after.end(), x) == after.end() &&
        std::find(out.begin(), out.end(), x) == out.end())
      out.push_back(x);
  return out;
}

std::vector<std::string> TargetNames(const CMakePackageFacts& c) {
  std::vector<std::string> out;
  for (const CMakeTargetFacts& t : c.targets) out.push_back(t.name);
  return out;
}

// CMake's version comparison (cmSystemTools::VersionCompare): numeric components, left to right.
bool VersionGreater(const std::string& a, const std::string& b) {
  const char* x = a.c_str();
  const char* y = b.c_str();
  while (*x || *y) {
    const unsigned long long u = std::strtoull(x, const_cast<char**>(&x), 10);
    const unsigned long long v = std::strtoull(y, const_cast<char**>(&y), 10);
    if (u != v) return u > v;
    if (*x == '.') ++x;
    if (*y == '.') ++y;
    if ((*x && !std::isdigit(static_cast<unsigned char>(*x))) ||
        (*y && !std::isdigit(static_cast<unsigned char>(*y))))
      return false;
  }
  return false;
}

nlohmann::ordered_json Raised(const CMakePackageFacts& before, const CMakePackageFacts& after) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const CMakeDependencyFacts& d : after.dependencies) {
    if (d.version.empty()) continue;
    for (const CMakeDependencyFacts& was : before.dependencies)
      if (was.name == d.name && !was.version.empty() && VersionGreater(d.version, was.version)) {
        out.push_back({{"dependency", d.name}, {"old_version", was.version}, {"new_version", d.version}});
        break;
      }
  }
  return out;
}

std::string Listed(const char* what, const std::vector<std::string>& names) {
  if (names.empty()) return "";
  std::string s = std::string(what) + (names.size() > 1 ? "s " : " ");
  for (size_t i = 0; i < names.size(); ++i) s += (i ? ", " : "") + names[i];
  return s;
}

void ComparePackage(const Side& new_side, const FileFacts& old_file, const FileFacts& new_file,
                    FindingSink& out) {
  const CMakePackageFacts& before = *old_file.cmake;
  const CMakePackageFacts& after = *new_file.cmake;
  const std::vector<std::string> targets = Missing(TargetNames(before), TargetNames(after));
  const std::vector<std::string> components = Missing(before.components, after.components);
  const std::vector<std::string> variables = Missing(before.result_variables, after.result_variables);
  nlohmann::ordered_json raised = Raised(before, after);
  const bool removed = !targets.empty() || !components.empty() || !variables.empty();
  if (!removed && raised.empty()) return;
  std::vector<std::string> hits;
  for (const FileFacts& f : new_side.files)
    if (f.cmake && &f != &new_file &&
        std::any_of(f.cmake->dependencies.begin(), f.cmake->dependencies.end(),
                    [&](const CMakeDependencyFacts& d) { return d.name == after.package; }))
      hits.push_back(f.path);
  Finding f = MakeFinding(kCMakeInterfaceRemovedRule, new_file.path);
  std::vector<std::string> parts;
  for (const std::string& s : {Listed("the imported target", targets), Listed("the component", components),
                               Listed("the result variable", variables)})
    if (!s.empty()) parts.push_back(s);
  f.message = "package " + after.package;
  for (size_t i = 0; i < parts.size(); ++i)
    f.message += (i == 0 ? " no longer defines " : i + 1 == parts.size() ? " and " : ", ") + parts[i];
  for (const auto& r : raised)
    f.message += std::string(parts.empty() ? " " : "; ") + "asks for " + r["dependency"].get<std::string>() +
                 " " + r["new_version"].get<std::string>() + " (was " + r["old_version"].get<std::string>() +
                 ")";
  if (!removed) f.severity = Severity::kWarning;
  f.fields = {{"package", after.package},
              {"removed_targets", targets},
              {"removed_components", components},
              {"removed_variables", variables},
              {"raised_dependencies", std::move(raised)},
              {"hit", hits}};
  out.Add(std::move(f));
}

}  // namespace

void CompareCMakePackages(const Side& old_side, const Side& new_side, FindingSink& out) {
  std::set<std::string> seen;
  for (const FileFacts& old_file : old_side.files) {
    if (!old_file.cmake || !seen.insert(old_file.cmake->package).second) continue;
    if (const FileFacts* new_file = Package(new_side, old_file.cmake->package))
      ComparePackage(new_side, old_file, *new_file, out);
  }
}

}  // namespace rocm_audit
