#include "audit/cmake/evaluator.h"

#include <atomic>

#include "audit/cmake/command_table.h"

namespace rocm_audit {
namespace {

std::atomic<size_t> evaluations{0};

}  // namespace

size_t ListFilesEvaluated() { return evaluations.load(std::memory_order_relaxed); }

CMakeEvaluator::CMakeEvaluator(const InstalledFiles& files, EvaluatorLimits limits)
    : in_(files, limits, FindCommand) {}

void CMakeEvaluator::Run(const std::string& path) {
  evaluations.fetch_add(1, std::memory_order_relaxed);
  std::string failure;
  Flow f = in_.RunFile(path, &failure);
  CMakeEvaluation& out = in_.rec().Out();
  if (!failure.empty())
    out.failures.push_back(CMakeFailure::Of(HostPath(path) + ": the file " + failure, {path, 0}));
  if (f == Flow::kStop) out.stopped = true;
}

CMakeEvaluation CMakeEvaluator::Take() {
  CMakeEvaluation& out = in_.rec().Out();
  out.targets = in_.targets().TakeAll();
  out.variables = CMakeVariables(in_.vars().TakeTop());
  out.modules_included = in_.ModulesIncluded();
  if (!in_.definitions().empty())
    out.definitions = std::make_shared<const std::map<std::string, CMakeDefinition>>(in_.TakeDefinitions());
  return std::move(out);
}

}  // namespace rocm_audit
