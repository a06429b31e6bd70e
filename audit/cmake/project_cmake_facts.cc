#include "audit/cmake/project_cmake_facts.h"

#include <set>

#include "audit/cmake/genex.h"
#include "audit/cmake/lists.h"

namespace rocm_audit {

CMakePackageFacts ProjectCMakeFacts(const CMakePackage& package, bool with_result_variables) {
  CMakePackageFacts f;
  f.package = package.name;
  f.version = package.version;
  for (const CMakeTarget& t : package.evaluation.targets) {
    if (!t.imported) continue;
    CMakeTargetFacts target{t.name, t.type, {}, {}};
    for (const auto& [property, value] : t.properties) {
      if (!value.known) continue;
      if (property.starts_with("IMPORTED_LOCATION") || property.starts_with("IMPORTED_IMPLIB"))
        target.locations.push_back(value.text);
      if (property == "INTERFACE_INCLUDE_DIRECTORIES")
        for (std::string& d : InstallInterfaceItems(value.text)) target.include_dirs.push_back(std::move(d));
    }
    f.targets.push_back(std::move(target));
  }
  f.includes = package.evaluation.included;
  f.components = package.components;
  for (const LocatedDependency& d : package.dependencies) {
    f.dependencies.push_back({d.request.name, d.request.version, d.found});
    if (with_result_variables) f.dependencies.back().targets.assign(d.targets.begin(), d.targets.end());
    for (const LocatedDependency::Through& m : d.through_module)
      f.dependencies.push_back({m.name, m.version, m.found, d.found});
  }
  for (const CMakeReference& r : package.evaluation.references)
    if (!r.exists && !r.optional)
      f.missing.push_back({r.path, r.via, r.site.file, r.site.line, r.undecided.empty()});
  if (with_result_variables) {
    // find_package() runs a config, and the configs it loads through find_dependency(), in
    // the caller's scope: what a dependency sets is the consumer's too (ROCM 6's config
    // gets ROCM_ERROR_TOOLCHAIN_VAR from ROCmCMakeBuildTools, which ROCM 5's set itself).
    const std::string prefix = package.name + "_";
    std::set<std::string> names;
    auto add = [&](const CMakeVariables& variables) {
      variables.ForEach([&](const std::string& name, const CMakeValue&) {
        if (name.size() > prefix.size() && name.starts_with(prefix) && !name.starts_with(prefix + "FIND_"))
          names.insert(name);
      });
    };
    add(package.evaluation.variables);
    for (const LocatedDependency& d : package.dependencies)
      if (!d.found.empty() && d.request.required && d.request.asked_component.empty()) add(d.variables);
    f.result_variables.assign(names.begin(), names.end());
  }
  return f;
}

}  // namespace rocm_audit
