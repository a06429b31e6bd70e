#include "checks/registry.h"

#include <algorithm>
#include <vector>

namespace rocm_audit {

// Each is defined, with its rules, in the check's own file.
extern const Check kMalformedFileCheck;
extern const Check kBundleIntegrityCheck;
extern const Check kArchCoverageCheck;
extern const Check kArchDataCoverageCheck;
extern const Check kUndefinedSymbolsCheck;
extern const Check kMissingVersionsCheck;
extern const Check kLibraryResolutionCheck;
extern const Check kRpathEntriesCheck;
extern const Check kClosureSonamesCheck;
extern const Check kStackArchGapCheck;
extern const Check kTreeSonamesCheck;
extern const Check kWalkProblemsCheck;
extern const Check kCMakeMissingFilesCheck;
extern const Check kCMakeDependenciesCheck;
extern const Check kCMakeImportedTargetsCheck;
extern const Check kCMakeAbsolutePathsCheck;
extern const Check kCMakeConsumerScopeCheck;
extern const Check kCMakeNotEvaluatedCheck;
extern const Check kPackageProblemsCheck;
extern const Check kMissingDependsCheck;

namespace {

// Run order. Within a stage, a file's findings of equal severity keep this order.
const Check* const kChecks[] = {
    // Stage::kFile
    &kMalformedFileCheck,
    &kBundleIntegrityCheck,
    &kArchCoverageCheck,
    &kArchDataCoverageCheck,
    // Stage::kLoadable
    &kUndefinedSymbolsCheck,
    &kMissingVersionsCheck,
    &kLibraryResolutionCheck,
    &kRpathEntriesCheck,
    &kClosureSonamesCheck,
    // Stage::kTree
    &kTreeSonamesCheck,
    &kStackArchGapCheck,
    &kWalkProblemsCheck,
    &kPackageProblemsCheck,
    &kCMakeMissingFilesCheck,
    &kCMakeDependenciesCheck,
    &kCMakeImportedTargetsCheck,
    &kCMakeAbsolutePathsCheck,
    &kCMakeConsumerScopeCheck,
    &kCMakeNotEvaluatedCheck,
    &kMissingDependsCheck,
};

std::vector<const Rule*> CollectRules() {
  std::vector<const Rule*> out;
  for (const Check* c : kChecks)
    for (const Rule& r : c->rules)
      if (std::none_of(out.begin(), out.end(), [&](const Rule* x) { return x->id == r.id; }))
        out.push_back(&r);
  return out;
}

}  // namespace

std::span<const Check* const> AllChecks() { return kChecks; }

std::span<const Rule* const> AllRules() {
  static const std::vector<const Rule*> rules = CollectRules();
  return rules;
}

const Rule* FindRule(std::string_view id) {
  for (const Rule* r : AllRules())
    if (r->id == id) return r;
  return nullptr;
}

}  // namespace rocm_audit
