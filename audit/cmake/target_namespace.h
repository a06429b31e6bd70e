// The namespace of an imported target's name ("Qt6" of Qt6::Core), and the namespaces a
// dependency evaluated only in part may define more targets in. Both the interpreter's
// if(TARGET) and the missing-target check judge a target of such a dependency by where its
// evaluation reached: one rule, one home.
#pragma once

#include <set>
#include <string>
#include <string_view>

#include "audit/cmake/lists.h"

namespace rocm_audit {

/// The part of `target` before "::", lower case; "" when it has none.
inline std::string TargetNamespace(std::string_view target) {
  const size_t colons = target.find("::");
  return colons == std::string_view::npos ? std::string() : ToLower(target.substr(0, colons));
}

/// The namespace of `target`, or its whole name when it has none, lower case: what a
/// dependency whose targets are not all known may define it under (an object library of a
/// plain name, adios2sys_objects, counts as its own namespace).
inline std::string TargetNamespaceOrName(std::string_view target) {
  return ToLower(target.substr(0, target.find("::")));
}

/// A dependency evaluated in part (Qt6's configs, whose own macros define more than is
/// evaluated) may define more in its own name's namespace and in those of the targets it
/// reached: lower case.
template <class Targets>
std::set<std::string> PartlyEvaluatedNamespaces(const std::string& dependency, const Targets& targets) {
  std::set<std::string> out;
  if (!dependency.empty()) out.insert(ToLower(dependency));
  for (const std::string& t : targets)
    if (std::string ns = TargetNamespace(t); !ns.empty()) out.insert(std::move(ns));
  return out;
}

/// A Find module of CMake's whose targets are not all known (FindPython, whose targets depend
/// on the components found) defines targets in its own namespaces only: its package's name's,
/// those of the targets it is known to define, and another for the one module that names its
/// targets otherwise (FindCUDAToolkit's CUDA::cudart). Lower case.
template <class Targets>
std::set<std::string> FindModuleNamespaces(const std::string& package, const Targets& targets) {
  std::set<std::string> out = PartlyEvaluatedNamespaces(package, targets);
  if (ToLower(package) == "cudatoolkit") out.insert("cuda");
  return out;
}

}  // namespace rocm_audit
