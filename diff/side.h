// One side of `rocm-audit diff OLD NEW`: the facts of an audited tree (or of the JSON report
// a run wrote of it) that the comparison reads, with every path below the input that held
// it, so that the two sides' files meet by installed path whatever directory, package file
// or report they came from.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "audit/model/file_facts.h"
#include "audit/model/finding.h"
#include "audit/model/report.h"

namespace rocm_audit {

struct Side {
  std::vector<std::string> inputs;  ///< as given on the command line: one, or a set installed together
  /// Audited files, paths below their input ("usr/lib/libx.so.1"). The parts the comparison
  /// reads: ELF (soname, needed, exports, imports), device targets, Tensile data, CMake.
  std::vector<FileFacts> files;
  /// The audit's findings (policy applied, keyed as --baseline keys them), files below
  /// their input.
  std::vector<Finding> findings;
  size_t files_audited = 0;
  bool from_report = false;  ///< read from a JSON report, not audited
  /// The layers of the base the side is installed over (host directories, top first): the
  /// installed world's base, else the --root layers; empty when there is none.
  std::vector<std::string> base;
};

/// The side of a finished audit (its facts kept, AuditRequest::symbol_facts set).
Side SideOfReport(std::vector<std::string> inputs, Report&& report);

/// What a regular file that starts like a JSON object is to `diff`: not a report of
/// rocm-audit (a file to audit), a side read from the report (files[] and findings[]), or a
/// tool error naming `input`: a report of a diff, one whose files[] carries no symbols
/// (written without --symbols) although it lists shared libraries, or JSON nested deeper
/// than a report may be (audit/model/report_reader.h).
enum class ReportSide { kNotAReport, kSide, kError };
ReportSide SideOfJsonReport(std::string input, std::string_view text, Side* side, std::string* error);

/// A path as the report shows it, below its input: "PKG.deb:/usr/lib/x" -> "usr/lib/x".
std::string InstalledPath(std::string_view shown);

}  // namespace rocm_audit
