// Running the registered checks: one file's (file-stage checks, then loadable-stage checks
// for a loadable file), or the whole tree's. Each check that runs appends to a sink; no
// check sees another's findings.
#pragma once

#include <vector>

#include "audit/model/finding.h"
#include "checks/check_input.h"
#include "engine/known_rules.h"

namespace rocm_audit {

/// finding-limit: a file had more findings than --max-findings-per-file, or more text in
/// them than --max-report-bytes-per-file allows it; the most severe are reported, and this
/// one says how many were left out, and by which cap.
extern const Rule kFindingLimitRule;

/// The caps on one file's findings: --max-findings-per-file and --max-report-bytes-per-file.
struct PerFileCaps {
  size_t findings;
  uint64_t bytes;  ///< the least a file's budget of text is (ReportByteBudget)
};

/// Findings of one file: every file-stage check, then (when `load` is given) every
/// loadable-stage check, in registry order; the most severe first, ties in that order. At
/// most `caps.findings` of them, holding at most the file's ReportByteBudget of text (the
/// first whatever its size), and then a finding-limit finding saying how many were left
/// out.
std::vector<Finding> CheckFile(const InspectedFile& file, const LoadFacts* load, const LoaderConfig& loader,
                               const CheckOptions& options, const RunFacts& run, const EnabledRules& enabled,
                               PerFileCaps caps);

/// The caps on the findings of no one audited file's checks: the whole-tree checks', the
/// walk's and unpacking's, all made by tree-stage checks. They are the per-file caps, taken
/// over the tree as if it were one file: at most `caps.findings` findings, holding at most
/// ReportByteBudget(caps.bytes, bytes_audited) bytes of text. The whole report then holds at
/// most twice what the audited files' own budgets add up to.
struct TreeCaps {
  PerFileCaps caps;
  uint64_t bytes_audited = 0;  ///< the sizes of every audited file, added up
  std::string path;            ///< what a finding-limit finding of the tree names: the first PATH
};

/// Findings of every tree-stage check, in registry order, within `caps`: the most severe are
/// kept (the first whatever its size), still in that order, and a finding-limit finding says
/// how many were left out.
std::vector<Finding> CheckTree(const TreeInput& tree, const EnabledRules& enabled, const TreeCaps& caps);

/// What checks may ask about the run as a whole: which files are audited, under which
/// prefixes, and by which names (host ELF files only: ld.so loads no GPU code object).
/// The symbol index is set later, once it is built.
RunFacts CollectRunFacts(const std::vector<Boxed<InspectedFile>>& files, std::vector<std::string> prefixes);

}  // namespace rocm_audit
