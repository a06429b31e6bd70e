#include "engine/audit.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <new>

#include "audit/fs/rooted_fs.h"
#include "engine/installed_world.h"
#include "engine/known_rules.h"
#include "engine/not_built_packages.h"
#include "engine/package_inputs.h"
#include "engine/tree_audit.h"

namespace rocm_audit {
namespace {

// Inputs that do not exist are tool errors, not findings: the run would audit nothing.
bool CheckInputs(const AuditRequest& request, std::string* error) {
  for (const auto& p : request.paths) {
    struct stat st;
    if (lstat(p.c_str(), &st) != 0) {
      // The kernel's reason: a path past PATH_MAX exists as far as anyone can tell, but
      // cannot be opened by that name (ENAMETOOLONG), and permissions are not absence.
      const int error_number = errno;
      *error = p + ": " +
               (error_number == ENOENT         ? std::string("no such file or directory")
                : error_number == ENAMETOOLONG ? std::string(kPathTooLong)
                                               : std::string(strerror(error_number)));
      return false;
    }
  }
  const std::pair<const char*, const std::vector<std::string>*> layer_options[] = {
      {"--root ", &request.roots}, {"--sibling ", &request.siblings}};
  for (const auto& [option, layers] : layer_options)
    for (const auto& root : *layers) {
      struct stat st;
      if (stat(root.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
        *error = std::string(option) + root + ": not a directory";
        return false;
      }
    }
  return true;
}

bool AuditUnguarded(const AuditRequest& given, AuditSinks& sinks, Report* report, std::string* error) {
  if (!CheckInputs(given, error)) return false;
  AuditRequest request = given;
  PackageInputs packages;
  if (!UnpackPackageInputs(&request.paths, &request.checks.relocatable, given.unpack, given.jobs, &packages,
                           error))
    return false;
  if (!ArrangeInstalledWorld(packages, &request, &report->inputs, error)) return false;
  DescribeReplacedCopies(&request);
  report->inputs.paths = given.paths;
  report->inputs.packages = std::move(packages.packages);
  if (packages.dir) report->inputs.unpacked_into = packages.tree;
  report->inputs.suppress_files = given.suppress_files;
  report->inputs.baseline_file = given.policy.baseline_file;
  report->rules = KnownRules();
  const EnabledRules enabled(given.policy);
  AuditTree(request, enabled, packages.problems, sinks, report);
  // What the workers read and freed stays in their malloc arenas, which writing the report
  // does not reuse: given back once the tree's facts are gone.
  if (request.release_at_exit) TrimFreedMemory();
  JudgeNeedsOfNotBuiltPackages(given.not_built, &report->findings);
  ApplyPolicy(given.policy, report);
  ArrangeDeclaredFields(report);
  return true;  // the private directory goes here, with every file unpacked into it
}

}  // namespace

// Memory that runs out for no one file (the walk's list, the symbol index, the whole-tree
// checks) ends the audit as a tool error, never an abort; what one file's reading or checks
// needed is that file's finding (InspectFile, TreeAudit::Finish).
bool Audit(const AuditRequest& given, AuditSinks& sinks, Report* report, std::string* error) {
  try {
    return AuditUnguarded(given, sinks, report, error);
  } catch (const std::bad_alloc&) {
    *report = Report{};
    *error =
        "memory ran out during the audit (std::bad_alloc), outside the reading and checks of any one file";
    return false;
  }
}

bool Audit(const AuditRequest& request, Report* report, std::string* error) {
  AuditSinks keep_everything;
  return Audit(request, keep_everything, report, error);
}

}  // namespace rocm_audit
