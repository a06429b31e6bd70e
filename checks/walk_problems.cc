// dangling-symlink, symlink-loop, unreadable-file, link-outside-tree: what the walk could
// not or would not follow. The walk goes on past each; these say what was not audited and why.
#include "checks/registry.h"

namespace rocm_audit {
namespace {

constexpr Rule kRules[] = {
    {"dangling-symlink", Severity::kWarning, "a symbolic link whose target does not exist",
     "ship the target (for a -dev package's libfoo.so link: the versioned library) or remove the link"},
    {"symlink-loop", Severity::kWarning, "a symbolic link that loops back on itself", "fix the link target"},
    {"unreadable-file", Severity::kWarning, "a file or directory the audit cannot read",
     "fix the permissions, or run the audit as a user that can read the tree"},
    {"link-outside-tree", Severity::kNote,
     "a symbolic link out of the audited paths, neither followed nor audited as part of them",
     "audit the link's target together with this tree (another PATH), or with --root so that "
     "absolute links resolve inside the installed system"},
};

const Rule& RuleOf(WalkProblem::Kind kind) {
  switch (kind) {
    case WalkProblem::kDanglingSymlink: return kRules[0];
    case WalkProblem::kSymlinkLoop: return kRules[1];
    case WalkProblem::kUnreadable: return kRules[2];
    case WalkProblem::kOutsideTree: return kRules[3];
  }
  return kRules[2];
}

void Run(const TreeInput& in, FindingSink& sink) {
  for (const WalkProblem& p : in.walk_problems) {
    Finding f = MakeFinding(RuleOf(p.kind), p.path);
    f.message = p.message;
    sink.Add(std::move(f));
  }
}

}  // namespace

extern const Check kWalkProblemsCheck{"walk_problems", kRules, TreeCheck{Run}};

}  // namespace rocm_audit
