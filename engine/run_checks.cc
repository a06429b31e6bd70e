#include "engine/run_checks.h"

#include <algorithm>

#include "audit/fs/path.h"

namespace rocm_audit {

std::vector<Finding> CheckFile(const InspectedFile& file, const LoadFacts* load, const LoaderConfig& loader,
                               const CheckOptions& options, const RunFacts& run,
                               const EnabledRules& enabled) {
  FindingSink sink;
  for (const Check* check : enabled.Running()) {
    if (const auto* run_file = std::get_if<FileCheck>(&check->run)) {
      (*run_file)(FileInput{file, options}, sink);
    } else if (const auto* run_loadable = std::get_if<LoadableCheck>(&check->run); run_loadable && load) {
      (*run_loadable)(LoadableInput{file, *load, loader, options, run}, sink);
    }
  }
  std::stable_sort(sink.findings.begin(), sink.findings.end(),
                   [](const Finding& a, const Finding& b) { return a.severity > b.severity; });
  return std::move(sink.findings);
}

std::vector<Finding> CheckTree(const TreeInput& tree, const EnabledRules& enabled) {
  FindingSink sink;
  for (const Check* check : enabled.Running())
    if (const auto* run_tree = std::get_if<TreeCheck>(&check->run)) (*run_tree)(tree, sink);
  return std::move(sink.findings);
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
