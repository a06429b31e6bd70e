// The JSON report, schema_version 1. A contract: fields are only ever added.
//   schema_version: 1
//   tool:     {name, version}
//   inputs:   {paths[], root|null (the top layer), roots[], library_path[], ld_so_conf_dirs[],
//              fail_on}
//   summary:  {files_audited, files_by_kind{}, findings, by_severity{error,warning,note},
//              by_check{}, failed, suppressed{waiver,baseline}, disabled_checks[]}
//   findings: [{check, severity, file, message, hint, <check fields>, key, suppressed?}]
//   files:    [{path, kind, <kind fields: class, machine, soname, needed, runpath, rpath,
//               closure, unresolved, members, bundles, ...>}]   (docs/design.md §5)
#pragma once

#include <ostream>
#include <string>

#include "audit/model/report.h"

namespace rocm_audit {

/// Which audited files `files[]` lists: every one (the default), only those with a
/// finding, or none (dashboards that read only the findings keep their JSON small).
enum class JsonFiles { kAll, kFindings, kNone };

class JsonFileStage;

/// Writes the report to `out` as it is built: the whole-tree text is never held at once
/// (files[] goes out a batch of files at a time). files[] is `staged` when the run rendered
/// it as it went (its files' facts were not kept); false: the staged text could not be read
/// back, and the report is cut short.
[[nodiscard]] bool WriteJson(const Report& report, Severity fail_on, bool fail_on_none, JsonFiles files,
                             std::ostream& out, const JsonFileStage* staged = nullptr);

/// The same report as one string (tests, and callers that want it whole).
std::string RenderJson(const Report& report, Severity fail_on, bool fail_on_none,
                       JsonFiles files = JsonFiles::kAll);

}  // namespace rocm_audit
