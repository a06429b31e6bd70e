// What the CMake checks say about a place in a package's list files: "file:line" and the
// common fields of their findings, so that every CMake finding reads and parses alike.
#pragma once

#include <string>

#include "audit/cmake/evaluation.h"
#include "audit/fs/path.h"
#include "audit/model/finding.h"

namespace rocm_audit {

inline std::string SiteText(const CMakeSite& site) {
  return std::string(BaseName(site.file.str())) + (site.line ? ":" + std::to_string(site.line) : "");
}

/// package, line, in: where in the package's files the finding is.
inline void AddSiteFields(Finding& f, const std::string& package, const CMakeSite& site) {
  f.fields["package"] = package;
  f.fields["line"] = site.line;
  f.fields["in"] = site.file;
}

/// The stage of a consumer's CMake run that fails on this finding: "configure"
/// (find_package), "generate" (imported targets linked) or "build".
inline void SetCMakeStage(Finding& f, std::string_view stage) {
  f.fields["cmake_stage"] = std::string(stage);
}

/// A finding only a consumer that asks for `component` meets (find_package(<Name>
/// COMPONENTS <component>)) says so, in the one wording every CMake check uses, and names
/// the component.
inline void MarkAskedComponent(Finding& f, const std::string& component) {
  if (component.empty()) return;
  f.message += "; only a consumer that asks for component " + component + " meets it";
  f.fields["asked_component"] = component;
}

/// A finding reached only on a branch the evaluation could not decide is a note that says
/// what was not known.
inline void MarkUndecided(Finding& f, const std::string& undecided) {
  if (undecided.empty()) return;
  f.severity = Severity::kNote;
  f.message += " (only on a branch not decided statically: " + undecided + ")";
  f.fields["undecided"] = undecided;
}

}  // namespace rocm_audit
