// cmake-interface-removed and cmake-dependency-dropped: package configs of OLD and NEW
// matched by package name; the imported targets and components a consumer could use that are
// gone, the dependencies now asked for at a higher version, and those no longer loaded whose
// targets a consumer got.
#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include "diff/compare.h"
#include "engine/comparison_rules.h"

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

// The targets a finding lists; `count` says how many there are.
constexpr size_t kListedTargets = 100;

// The package configs of NEW that depend on the package of `config` (they find_dependency it).
std::vector<std::string> DependentConfigs(const Side& new_side, const FileFacts& config) {
  std::vector<std::string> out;
  for (const FileFacts& f : new_side.files)
    if (f.cmake && &f != &config &&
        std::any_of(f.cmake->dependencies.begin(), f.cmake->dependencies.end(),
                    [&](const CMakeDependencyFacts& d) { return d.name == config.cmake->package; }))
      out.push_back(f.path);
  return out;
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
              {"hit", DependentConfigs(new_side, new_file)}};
  out.Add(std::move(f));
}

// The targets a consumer of `c` gets from it: its own and those each dependency it loads
// brings.
std::set<std::string> Available(const CMakePackageFacts& c) {
  std::set<std::string> out;
  for (const CMakeTargetFacts& t : c.targets) out.insert(t.name);
  for (const CMakeDependencyFacts& d : c.dependencies) out.insert(d.targets.begin(), d.targets.end());
  return out;
}

// cmake-dependency-dropped: each dependency OLD's config loaded and NEW's no longer loads (it
// no longer asks for it, or asks and finds it nowhere: an optional one is left out without a
// word), with the targets it brought that nothing NEW's config loads still defines.
void CompareDependencies(const Side& new_side, const FileFacts& old_file, const FileFacts& new_file,
                         FindingSink& out) {
  const CMakePackageFacts& before = *old_file.cmake;
  const CMakePackageFacts& after = *new_file.cmake;
  // A dependency asked for more than once (per component, or in branches) brought the union.
  std::map<std::string, std::set<std::string>> dropped;
  auto asked = [&](const std::string& name, bool loaded) {
    return std::any_of(
        after.dependencies.begin(), after.dependencies.end(),
        [&](const CMakeDependencyFacts& a) { return a.name == name && (!loaded || !a.found.empty()); });
  };
  for (const CMakeDependencyFacts& d : before.dependencies)
    if (!d.found.empty() && !asked(d.name, true)) dropped[d.name].insert(d.targets.begin(), d.targets.end());
  if (dropped.empty()) return;
  const std::set<std::string> still = Available(after);
  for (const auto& [dependency, brought] : dropped) {
    std::vector<std::string> gone;
    for (const std::string& t : brought)
      if (!still.count(t)) gone.push_back(t);
    if (gone.empty()) continue;
    const size_t count = gone.size();
    Finding f = MakeFinding(kCMakeDependencyDroppedRule, new_file.path);
    f.message = "package " + after.package + " no longer loads " + dependency +
                (asked(dependency, false) ? " (it asks for it and finds it nowhere)" : "") + ": " +
                std::to_string(count) + " imported target" + (count == 1 ? "" : "s") + " its consumers got " +
                (count == 1 ? "is" : "are") + " gone (" + gone[0] + (count > 1 ? ", ...)" : ")");
    gone.resize(std::min(count, kListedTargets));
    f.fields = {{"package", after.package},
                {"dependency", dependency},
                {"count", count},
                {"targets", gone},
                {"left_out", count - gone.size()},
                {"hit", DependentConfigs(new_side, new_file)}};
    out.Add(std::move(f));
  }
}

}  // namespace

void CompareCMakePackages(const Side& old_side, const Side& new_side, FindingSink& out) {
  std::set<std::string> seen;
  for (const FileFacts& old_file : old_side.files) {
    if (!old_file.cmake || !seen.insert(old_file.cmake->package).second) continue;
    if (const FileFacts* new_file = Package(new_side, old_file.cmake->package)) {
      ComparePackage(new_side, old_file, *new_file, out);
      CompareDependencies(new_side, old_file, *new_file, out);
    }
  }
}

}  // namespace rocm_audit
