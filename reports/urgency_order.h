// The order a reader fixes things in, shared by the text and HTML reports: files with the most
// severe finding first (a file with an error before one whose worst is a warning, then notes),
// and within a file its findings most severe first. Equal ranks keep the report's order (the
// walk's order of files, the checks' order within a file), so the output stays deterministic.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "audit/model/finding.h"

namespace rocm_audit {

struct FileFindings {
  std::string file;
  std::vector<const Finding*> findings;  ///< most severe first
};

/// The findings `shown` keeps, grouped by file, in order of urgency. An accepted finding
/// (waiver, baseline) counts toward nothing: it ranks below every counted one, in its file
/// and in its file's place.
std::vector<FileFindings> FindingsByUrgency(const std::vector<Finding>& findings,
                                            const std::function<bool(const Finding&)>& shown);

}  // namespace rocm_audit
