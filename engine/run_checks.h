// Running the registered checks: one file's (file-stage checks, then loadable-stage checks
// for a loadable file), or the whole tree's. Each check that runs appends to a sink; no
// check sees another's findings.
#pragma once

#include <vector>

#include "audit/model/finding.h"
#include "checks/check_input.h"
#include "engine/known_rules.h"

namespace rocm_audit {

/// finding-limit: a file had more findings than --max-findings-per-file; the most severe
/// are reported, and this one says how many were left out.
extern const Rule kFindingLimitRule;

/// Findings of one file: every file-stage check, then (when `load` is given) every
/// loadable-stage check, in registry order; the most severe first, ties in that order. At
/// most `max_findings` of them, and then a finding-limit finding saying how many were
/// left out.
std::vector<Finding> CheckFile(const InspectedFile& file, const LoadFacts* load, const LoaderConfig& loader,
                               const CheckOptions& options, const RunFacts& run, const EnabledRules& enabled,
                               size_t max_findings);

/// Findings of every tree-stage check, in registry order.
std::vector<Finding> CheckTree(const TreeInput& tree, const EnabledRules& enabled);

/// What checks may ask about the run as a whole: which files are audited, under which
/// prefixes, and by which names (host ELF files only: ld.so loads no GPU code object).
/// The symbol index is set later, once it is built.
RunFacts CollectRunFacts(const std::vector<Boxed<InspectedFile>>& files, std::vector<std::string> prefixes);

}  // namespace rocm_audit
