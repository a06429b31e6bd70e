// One side of `rocm-audit diff OLD NEW`: the facts of an audited tree (or of the JSON report
// a run wrote of it) that the comparison reads, with every path below the input that held
// it, so that the two sides' files meet by installed path whatever directory, package file
// or report they came from.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "audit/model/file_facts.h"
#include "audit/model/finding.h"
#include "audit/model/report.h"

namespace rocm_audit {

/// A package of a side (a .deb, .rpm, ... it was given), by what it calls itself.
struct SidePackage {
  std::string name;
  std::string file;     ///< the package file, as given (or as the side's report names it)
  std::string version;  ///< "" when it does not say
  /// A .deb's source package (its own name when the control file names none; "" for other
  /// formats) and the version Source: names ("" when none: the package's version).
  std::string source, source_version;
  /// A .deb's relations, one each as written ("libt1 (<< 2.0)"); provides only of an audited side.
  std::vector<std::string> provides, conflicts, breaks, replaces;
};

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
  /// What the side's audit ran over and with, as its report records it, each as one line
  /// of text: "base" ("/", "no base (--no-base)", the --root layers), "library path",
  /// "ld.so.conf directories", "suppressions", "baseline". Two sides audited over other
  /// bases or with other options disagree on findings the update did not cause.
  std::map<std::string, std::string> audited_with;
  /// The packages the side was given as (none for a tree), and the package each of their
  /// files came from: path as in `files` -> index into `packages`.
  std::vector<SidePackage> packages;
  std::map<std::string, size_t, std::less<>> package_of;

  /// The package `path` (as in `files`) came from; nullptr when unknown.
  const SidePackage* PackageOf(std::string_view path) const;
  /// Whether the side holds a package called `name`.
  bool HasPackage(std::string_view name) const;
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

/// audited_with of a report's inputs: whether it was installed (`world`) over `base`, else
/// over the --root layers `roots`; the option lists as they are.
std::map<std::string, std::string> AuditedWith(bool world, const std::vector<std::string>& base,
                                               const std::vector<std::string>& roots,
                                               const std::vector<std::string>& library_path,
                                               const std::vector<std::string>& ld_so_conf_dirs,
                                               const std::vector<std::string>& suppress,
                                               const std::string& baseline);

/// A path as the report shows it, below its input: "PKG.deb:/usr/lib/x" -> "usr/lib/x".
std::string InstalledPath(std::string_view shown);

}  // namespace rocm_audit
