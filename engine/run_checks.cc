#include "engine/run_checks.h"

#include <algorithm>

#include "audit/fs/path.h"
#include "checks/registry.h"

namespace rocm_audit {

// Warning: the report of the file is incomplete (its most severe findings are in it, so an error
// still fails the run), and a gate on warnings should not pass a file the report did not
// finish. lintian caps a tag's repetitions per package and says how many it dropped, as a note
// (a classification tag); auditwheel: none.
const Rule kFindingLimitRule{
    .id = "finding-limit",
    .severity = Severity::kWarning,
    .title =
        "a file, or the tree's findings of no one file, with more findings than --max-findings-per-file, or "
        "more text in them than --max-report-bytes-per-file allows; the rest are left out",
    .fix = "fix the findings reported, or raise --max-findings-per-file or --max-report-bytes-per-file",
    .key_fields = "",
    .explanation =
        "One file made more findings than --max-findings-per-file allows (5000 by default), or findings "
        "holding more text than its budget: the larger of --max-report-bytes-per-file (262144 bytes by "
        "default) and 16 times the file's own size. The text of a finding is its file, rule, message, hint "
        "and the strings of its fields. The report keeps the most severe of the findings, in the order the "
        "checks made them, as long as both caps hold (the first whatever its size), and this finding says "
        "how many it left out, how many bytes of text they held and which cap left them out. The findings "
        "of no one file (the whole-tree checks', such as the tree-wide mixed-soname and the cmake-* checks, "
        "the walk's and unpacking's) are held to the same caps as one file's, taken over the tree: at most "
        "--max-findings-per-file of them, holding the larger of --max-report-bytes-per-file and 16 times "
        "the bytes of all audited files; they keep the order the checks made them in, and their "
        "finding-limit finding is on the first PATH. No real file or tree comes near either cap: they "
        "bound what crafted input can make a report hold (a library with 100,000 RUNPATH entries, a "
        "finding each; 1,000 DT_NEEDED entries pointing into one 4 KB string; a directory 2 KB deep of "
        "dangling links), so that the report grows with the bytes audited, the report of the rest of the "
        "tree stays readable and the run's memory bounded. Fix the findings reported and audit again, or "
        "raise a cap to see all of them.",
    .example =
        "lib/librunpath.so\n"
        "  warning[finding-limit]: 195000 more findings of this file (55495000 bytes of text) left out of "
        "the report (--max-findings-per-file 5000; the 5000 most severe are reported)\n"
        "    fix: fix the findings reported, or raise --max-findings-per-file or --max-report-bytes-per-file",
    .cause_fields = "",
    .cause = "findings left out: {files}",
    .fields = "left_out:number limit:number bytes_left_out?:number byte_limit?:number",
};

namespace {

// What a finding-limit finding is about: a file, or the tree (the findings of no one file).
struct LimitScope {
  const std::string& path;  ///< the finding's file
  std::string_view whose;   ///< "this file", "the tree"
  std::string_view budget;  ///< whose budget the byte cap is ("this file")
  std::string size;         ///< "its 20480 bytes"
};

// The finding-limit finding of a sink that left findings out: how many, their text, and the
// caps that left them out.
Finding LimitFinding(const LimitScope& scope, const FindingSink& sink, PerFileCaps caps, uint64_t byte_limit,
                     size_t reported) {
  std::string named;
  if (sink.left_out > sink.left_out_for_bytes)
    named = "--max-findings-per-file " + std::to_string(caps.findings);
  if (sink.left_out_for_bytes > 0)
    named += (named.empty() ? "" : " and ") + std::string("--max-report-bytes-per-file: ") +
             std::to_string(byte_limit) + " bytes of text for " + std::string(scope.budget) +
             ", the larger of " + std::to_string(caps.bytes) + " and " +
             std::to_string(kReportBytesPerFileByte) + " times " + scope.size;
  Finding f = MakeFinding(kFindingLimitRule, scope.path);
  f.message = std::to_string(sink.left_out) + " more findings of " + std::string(scope.whose) + " (" +
              std::to_string(sink.bytes_left_out) + " bytes of text) left out of the report (" + named +
              "; the " + std::to_string(reported) + " most severe are reported)";
  f.fields["left_out"] = sink.left_out;
  f.fields["limit"] = caps.findings;
  f.fields["bytes_left_out"] = sink.bytes_left_out;
  f.fields["byte_limit"] = byte_limit;
  return f;
}

}  // namespace

std::vector<Finding> CheckFile(const InspectedFile& file, const LoadFacts* load, const LoaderConfig& loader,
                               const CheckOptions& options, const RunFacts& run, const EnabledRules& enabled,
                               PerFileCaps caps) {
  // Findings alike but for an index (4,096 entries of one bundle, each malformed the same
  // way) are folded into one, as compilers fold a repeated diagnostic.
  const uint64_t byte_limit = ReportByteBudget(caps.bytes, file.walked.size);
  FindingSink sink({.count = caps.findings, .bytes = byte_limit}, AllRules());
  for (const Check* check : enabled.RunningChecks()) {
    if (const auto* run_file = std::get_if<FileCheck>(&check->run)) {
      (*run_file)(FileInput{file, options}, sink);
    } else if (const auto* run_loadable = std::get_if<LoadableCheck>(&check->run); run_loadable && load) {
      (*run_loadable)(LoadableInput{file, *load, loader, options, run}, sink);
    }
  }
  std::vector<Finding> findings = std::move(sink).SortedWithinLimit();
  if (sink.left_out > 0) {
    const LimitScope scope{file.walked.path, "this file", "this file",
                           "its " + std::to_string(file.walked.size) + " bytes"};
    findings.push_back(LimitFinding(scope, sink, caps, byte_limit, findings.size()));
    std::stable_sort(findings.begin(), findings.end(),
                     [](const Finding& a, const Finding& b) { return a.severity > b.severity; });
  }
  return findings;
}

std::vector<Finding> CheckTree(const TreeInput& tree, const EnabledRules& enabled, const TreeCaps& caps) {
  // Not folded (they are of many files), and kept in the order the checks made them.
  const uint64_t byte_limit = ReportByteBudget(caps.caps.bytes, caps.bytes_audited);
  FindingSink sink({.count = caps.caps.findings, .bytes = byte_limit}, {});
  for (const Check* check : enabled.RunningChecks())
    if (const auto* run_tree = std::get_if<TreeCheck>(&check->run)) (*run_tree)(tree, sink);
  std::vector<Finding> findings = std::move(sink).WithinLimit();
  if (sink.left_out > 0) {
    const LimitScope scope{caps.path, "the tree",
                           "the tree's findings (the whole-tree checks', the walk's, unpacking's)",
                           "the " + std::to_string(caps.bytes_audited) + " bytes of the audited files"};
    findings.push_back(LimitFinding(scope, sink, caps.caps, byte_limit, findings.size()));
  }
  return findings;
}

RunFacts CollectRunFacts(const std::vector<Boxed<InspectedFile>>& files, std::vector<std::string> prefixes) {
  RunFacts run;
  run.audited_prefixes = std::move(prefixes);
  for (const Boxed<InspectedFile>& kept : files) {
    if (!kept || !kept->model() || !ReadAfterItsChecks(*kept)) continue;
    const InspectedFile& f = *kept;
    if (f.loadable()) run.audited_real_paths.insert(f.walked.real_path);
    std::string name(BaseName(f.walked.path));
    run.audited_by_name[name].push_back(f.walked.path);
    if (!f.model()->soname.empty() && f.model()->soname != name)
      run.audited_by_name[f.model()->soname].push_back(f.walked.path);
  }
  return run;
}

}  // namespace rocm_audit
