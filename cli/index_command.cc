// `index PACKAGE...`: the consumer index of the packages, for `diff --consumers`.
#include <iostream>
#include <vector>

#include "audit/model/byte_text.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/report_output.h"
#include "engine/consumer_index.h"

namespace rocm_audit {

// The index goes to --output or the standard output; what a package refused is said on
// stderr, and the status is 1.
int RunIndex(CliOptions& o) {
  std::vector<IndexProblem> refused;
  const int status = PrintOutput(
      o,
      [&](std::ostream& out, std::string* error) {
        return IndexPackages(o.audit.paths, o.audit.unpack, o.audit.jobs, out, &refused, error);
      },
      0);
  for (const IndexProblem& p : refused)
    std::cerr << "rocm-audit: " << DisplayText(p.package + ": " + p.message) << "\n";
  return status == 0 && !refused.empty() ? 1 : status;
}

}  // namespace rocm_audit
