// The parts of the text report only `diff OLD NEW` has: the verdict per package of NEW, first
// (what the update needs before it ships), and under a comparison finding who it hits and
// which symbols, demangled and grouped by scope, so that the first screen says what to do
// without the JSON.
#pragma once

#include <string>

#include "audit/model/report.h"

namespace rocm_audit {

/// " (source rocrand)" after a verdict's package name, " (source rocrand 6.0.2-1)" when
/// Source: names a version; "" when unknown, or the package is its own source.
std::string SourceOf(const PackageVerdict& v);

/// "Verdict per package of NEW:" and a line per package; "" when the report has none.
std::string VerdictLines(const Report& report);

/// The lines under a comparison finding, indented by four: its removed symbols by scope and
/// the files it hits (a few of each, then how many more); "" for other findings.
std::string DiffDetailLines(const Finding& f);

}  // namespace rocm_audit
